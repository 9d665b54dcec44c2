import { sessauthProject } from '../../vitest.project.js';

export default sessauthProject('nestjs');
