import { describeBrowserClient } from './describe-browser-client.js';
import { launchChromium } from '@sessauth/browser-support';

describeBrowserClient('express', await launchChromium());
