/**
 * The slice of node:crypto the core uses, typed by structure: the core compiles
 * without Node's types and bundles for Web-Fetch runtimes, where this is absent and
 * each caller falls back to WebCrypto (same bytes, same results).
 */
export interface NodeKeyObject {
  readonly type: 'secret' | 'public' | 'private';
  readonly asymmetricKeyType?: string;
  readonly asymmetricKeyDetails?: { readonly modulusLength?: number; readonly namedCurve?: string };
  export(options: { type: 'spki'; format: 'der' }): Uint8Array;
}

export interface NodeHmac {
  update(data: string, encoding: 'utf8'): NodeHmac;
  digest(encoding: 'base64url'): string;
  digest(): Uint8Array;
}

export interface NodeCrypto {
  createHmac(algorithm: string, key: Uint8Array | NodeKeyObject): NodeHmac;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
  createSecretKey(key: Uint8Array): NodeKeyObject;
  createPrivateKey(pem: string): NodeKeyObject;
  createPublicKey(key: string | NodeKeyObject): NodeKeyObject;
}

/** node:crypto where the runtime has it (Node 20.16+, Deno, Bun), loaded lazily; otherwise undefined. */
export function nodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
}

/** The slice of node:buffer used here. */
export interface NodeBufferClass {
  from(text: string, encoding: 'base64url'): Uint8Array;
}

/** node:buffer's `Buffer` where the runtime has it; otherwise undefined. */
export function nodeBuffer(): NodeBufferClass | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return (proc?.getBuiltinModule?.('node:buffer') as { Buffer?: NodeBufferClass } | undefined)?.Buffer;
}
