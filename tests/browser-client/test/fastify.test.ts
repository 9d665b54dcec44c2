import { describeBrowserClient } from './describe-browser-client.js';
import { launchChromium } from '@sessauth/browser-support';

describeBrowserClient('fastify', await launchChromium());
