export { createExampleApp, type ExampleApp } from './example-app.js';
export { DemoUserDirectory, type DemoUser } from './demo-users.js';
export { exampleConfigFromEnv, type ExampleConfig, type DemoUsersPlan } from './env-config.js';
export { createLimitedServer, httpLimitsFromEnv, nodeServerOptions, type HttpServerLimits } from './http-server-limits.js';
export { startupBanner } from './startup-banner.js';
export { storesFromUrl, type ExampleStores } from './store-from-url.js';
export { demoPageResponse } from './demo-page.js';
export { geolocationFromEnv } from './geolocation-from-env.js';
export { clientAssetResponse, CLIENT_ASSET_PATH, type AssetResponse } from './client-asset.js';
