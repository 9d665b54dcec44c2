import { createExampleApp, startupBanner } from '@sessauth/example-shared';
import { createNestApp } from './create-app.js';

const example = await createExampleApp(process.env);
const app = await createNestApp(example.auth, { corsOrigins: (process.env.CORS_ORIGINS ?? '').split(',').filter(Boolean) });
await app.listen(example.config.port, example.config.host);
console.log(startupBanner('nestjs', example.config));
