export { createNestApp, type NestAppOptions } from './create-app.js';
