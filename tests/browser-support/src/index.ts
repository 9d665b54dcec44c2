export { startExample, type ExampleServer, type StartExampleOptions } from './start-example.js';
export { CHROMIUM_PATH, launchChromium } from './launch-chromium.js';
export { layoutProblems, pngByteVariety, pngSize, type Box } from './layout-check.js';
