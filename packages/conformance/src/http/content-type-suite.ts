import { expect } from 'vitest';
import { expectError } from './expectations.js';
import { rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';

const REFUSED_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/json',
  'application/jsonp',
  'application/javascript',
  'json',
];

const ACCEPTED_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'Application/JSON',
];

/** The content-type gate of login and refresh: 415 before the body is parsed, 413 for huge bodies. */
export function contentTypeSuite(kit: SuiteKit): void {
  kit.test('content-type/refused', 'non-JSON, missing and duplicate content types are 415 on login and refresh', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const client = app.client();
    for (const path of [app.at('/login/'), app.at('/refresh/')]) {
      const body = JSON.stringify({ username: 'alice', password: app.users.passwords.alice, refresh_token: alice.refresh });
      for (const contentType of REFUSED_TYPES) {
        expectError(await client.post(path, { body, contentType }), 415, 'unsupported_media_type');
      }
      expectError(await client.post(path, { body, contentType: null }), 415, 'unsupported_media_type');
      const twice = await rawRequest(app.baseUrl, 'POST', path, { 'content-type': ['application/json', 'application/json'] }, body);
      expectError(twice, 415, 'unsupported_media_type');
    }
    // A 415 is decided before parsing, so the refused refreshes consumed nothing.
    expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
  });

  kit.test('content-type/empty-body', 'an empty body with a JSON type is 415', async () => {
    const app = await kit.start();
    const client = app.client();
    for (const path of [app.at('/login/'), app.at('/refresh/')]) {
      expectError(await client.post(path, { body: '', contentType: 'application/json' }), 415, 'unsupported_media_type');
      expectError(await client.post(path, { contentType: 'application/json' }), 415, 'unsupported_media_type');
    }
  });

  kit.test('content-type/accepted', 'application/json with parameters and application/*+json are accepted', async () => {
    const app = await kit.start();
    const client = app.client();
    for (const contentType of ACCEPTED_TYPES) {
      const body = JSON.stringify({ username: 'alice', password: app.users.passwords.alice });
      const result = await client.post(app.at('/login/'), { body, contentType });
      expect(result.status, `${contentType}: ${result.text}`).toBe(200);
    }
  });

  kit.test('content-type/too-large', 'a body beyond maxBodyBytes is 413 payload_too_large', async () => {
    const app = await kit.start();
    const client = app.client();
    const huge = JSON.stringify({ username: 'alice', password: 'p'.repeat(20_000) });
    expectError(await client.post(app.at('/login/'), { body: huge, contentType: 'application/json' }), 413, 'payload_too_large');
    const refresh = JSON.stringify({ refresh_token: 'r'.repeat(20_000) });
    expectError(await client.post(app.at('/refresh/'), { body: refresh, contentType: 'application/json' }), 413, 'payload_too_large');
  });

  kit.test('content-type/custom-limit', 'maxBodyBytes is honoured exactly around its bound', async () => {
    const app = await kit.start({ maxBodyBytes: 1024 });
    const client = app.client();
    const base = JSON.stringify({ username: 'alice', password: app.users.passwords.alice, pad: '' });
    const fits = base.replace('"pad":""', `"pad":"${'x'.repeat(1024 - base.length)}"`);
    expect(new TextEncoder().encode(fits).length).toBe(1024);
    const fitting = await client.post(app.at('/login/'), { body: fits, contentType: 'application/json' });
    expect(fitting.status, fitting.text).toBe(200);
    const over = fits.replace('"pad":"', '"pad":"x');
    expectError(await client.post(app.at('/login/'), { body: over, contentType: 'application/json' }), 413, 'payload_too_large');
  });
}
