export { createWebExample, type WebExampleInput, type WebFetch } from './web-app.js';
export { WebDemoUsers, type WebDemoUser } from './demo-users.js';
