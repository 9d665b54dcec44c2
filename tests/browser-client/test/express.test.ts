import { describeBrowserClient } from './describe-browser-client.js';
import { launchChromium } from './support/chromium.js';

describeBrowserClient('express', await launchChromium());
