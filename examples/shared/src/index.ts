export { createExampleApp, parseJsonBytes, type ExampleApp } from './example-app.js';
export { DemoUserDirectory, type DemoUser } from './demo-users.js';
export { exampleConfigFromEnv, type ExampleConfig } from './env-config.js';
export { storesFromUrl, type ExampleStores } from './store-from-url.js';
export { demoPageHtml } from './demo-page.js';
export { geolocationFromEnv } from './geolocation-from-env.js';
export { clientAssetResponse, CLIENT_ASSET_PATH, type AssetResponse } from './client-asset.js';
