import { base64url } from './dpop-encoding.js';

/** The public half of a P-256 key, as a proof's header carries it (RFC 7517; no `ext`, no `key_ops`). */
export interface PublicEcJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
}

/** A DPoP key pair: the private half a non-extractable `CryptoKey` (script can sign with it, never read it). */
export interface DpopKey {
  readonly privateKey: CryptoKey;
  readonly jwk: PublicEcJwk;
  /** RFC 7638 SHA-256 thumbprint, base64url: the `cnf.jkt` of the tokens bound to this key. */
  readonly jkt: string;
}

/**
 * Where the DPoP key lives: one record per API (`name`), shared by every tab of the origin. In a
 * browser that is IndexedDB, which stores the `CryptoKey` itself (structured clone keeps it
 * non-extractable); without IndexedDB (Node, React Native), this client's memory.
 */
export class DpopKeyring {
  private cached: DpopKey | null = null;
  private db: Promise<IDBDatabase> | null = null;
  private memory: DpopKey | null = null;

  constructor(private readonly name: string) {}

  /**
   * The API's key, made now if there is none. Two tabs that get here at once each make a key, but
   * only one is stored (an add inside one IndexedDB transaction, which run one after the other on
   * a store): the other tab drops its own and both use the stored one.
   */
  async obtain(): Promise<DpopKey> {
    const stored = await this.read();
    if (stored !== null) return (this.cached = stored);
    const made = await makeKey();
    const winner = await this.addUnlessPresent(made);
    this.cached = winner;
    return winner;
  }

  /** The key of thumbprint `jkt` (a token's `cnf.jkt`), or the stored key when `jkt` is null; null when gone. */
  async find(jkt: string | null): Promise<DpopKey | null> {
    if (jkt !== null && this.cached?.jkt === jkt) return this.cached;
    const stored = await this.read();
    if (stored === null || (jkt !== null && stored.jkt !== jkt)) return null;
    return (this.cached = stored);
  }

  /** Deletes the stored key if it is `jkt`'s (any stored key when null): its session has ended. */
  async forget(jkt: string | null): Promise<void> {
    if (jkt === null || this.cached?.jkt === jkt) this.cached = null;
    if (!hasIndexedDb()) {
      if (jkt === null || this.memory?.jkt === jkt) this.memory = null;
      return;
    }
    await this.transact('readwrite', (store, done) => {
      const get = store.get(this.name);
      get.onsuccess = () => {
        const record = get.result as DpopKey | undefined;
        if (record !== undefined && (jkt === null || record.jkt === jkt)) store.delete(this.name);
        done(undefined);
      };
    });
  }

  private async read(): Promise<DpopKey | null> {
    if (!hasIndexedDb()) return this.memory;
    return this.transact<DpopKey | null>('readonly', (store, done) => {
      const get = store.get(this.name);
      get.onsuccess = () => done(isDpopKey(get.result) ? get.result : null);
    });
  }

  private async addUnlessPresent(made: DpopKey): Promise<DpopKey> {
    if (!hasIndexedDb()) return (this.memory ??= made);
    return this.transact<DpopKey>('readwrite', (store, done) => {
      const get = store.get(this.name);
      get.onsuccess = () => {
        if (isDpopKey(get.result)) return done(get.result);
        store.add(made, this.name);
        done(made);
      };
    });
  }

  /** One transaction; resolves with what `work` reported once it has committed. */
  private async transact<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore, done: (value: T) => void) => void): Promise<T> {
    const db = await this.open();
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      let result: T;
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('sessauth: the DPoP key transaction was aborted'));
      work(tx.objectStore(STORE), (value) => {
        result = value;
      });
    });
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => {
        const db = request.result;
        // A later version (another build of this library) may need the database: let it go.
        db.onversionchange = () => {
          db.close();
          this.db = null;
        };
        resolve(db);
      };
      request.onerror = () => {
        this.db = null;
        reject(request.error);
      };
    });
    return this.db;
  }
}

const DATABASE = 'sessauth-dpop';
const STORE = 'keys';

function hasIndexedDb(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** An ECDSA P-256 pair whose private half cannot be exported (WebCrypto `extractable: false`). */
async function makeKey(): Promise<DpopKey> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const { x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  if (typeof x !== 'string' || typeof y !== 'string') throw new TypeError('sessauth: the DPoP public key has no coordinates');
  const jwk: PublicEcJwk = { kty: 'EC', crv: 'P-256', x, y };
  return { privateKey: pair.privateKey, jwk, jkt: await thumbprint(jwk) };
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, no whitespace. */
async function thumbprint(jwk: PublicEcJwk): Promise<string> {
  const canonical = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`;
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical))));
}

function isDpopKey(value: unknown): value is DpopKey {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<DpopKey>;
  return (
    typeof record.jkt === 'string' && typeof record.jwk === 'object' && typeof CryptoKey !== 'undefined' && record.privateKey instanceof CryptoKey
  );
}
