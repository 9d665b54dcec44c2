import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import semver from 'semver';
import { readPackedManifest, type PackedManifest } from './tarball.js';

export interface LocalRegistry {
  /** For an app's .npmrc: `@sessauth:registry=<url>`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A registry on 127.0.0.1 for the @sessauth scope only (everything else still comes
 * from the real registry), serving the given tarballs as published versions. With it
 * an app depends on `@sessauth/express@0.1.0` by name, as a user's does, and npm
 * resolves the packages' own dependency ranges the way it would after a publish.
 */
export async function startScopedRegistry(tarballs: readonly string[]): Promise<LocalRegistry> {
  const packuments = new Map<string, { name: string; 'dist-tags': { latest: string }; versions: Record<string, PackedManifest> }>();
  const files = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!.slice(1));
    const file = path.startsWith('-/tarballs/') ? files.get(path.slice('-/tarballs/'.length)) : undefined;
    const packument = packuments.get(path);
    if (file !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length });
      response.end(file);
    } else if (packument !== undefined) {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(packument));
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not_found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  for (const tarball of tarballs) {
    const bytes = readFileSync(tarball);
    const manifest = await readPackedManifest(tarball);
    const name = `${basename(tarball, '.tgz')}-${manifest.version}.tgz`;
    files.set(name, bytes);
    const dist = {
      tarball: `${url}-/tarballs/${name}`,
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
    };
    const packument = packuments.get(manifest.name) ?? { name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: {} };
    packument.versions[manifest.version] = { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist };
    if (semver.gt(manifest.version, packument['dist-tags'].latest)) packument['dist-tags'].latest = manifest.version;
    packuments.set(manifest.name, packument);
  }
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
