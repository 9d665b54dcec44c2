// Run by `build` after tsup: writes the OpenAPI description for the default settings
// (prefix /auth, refresh token in the body) into dist/openapi.json, from the built code,
// so the shipped file is the one the core generates and never a hand-kept copy.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/openapi.js';

const target = new URL('../dist/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
