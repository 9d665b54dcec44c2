import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { killedOnExit } from './killed-on-exit.js';

/**
 * The partition relays of `partition-relays.ts` in a process of their own, so that gossip and
 * replication between cluster nodes never wait behind the test process's load and checker.
 */
export interface PartitionSwitchboard {
  /** A relay listening on `host` (the node's own address, a free port), forwarding to `host:port`. */
  relay(host: string, port: number): Promise<number>;
  /** Cuts `ip` off from every other address; resolves once the relays applied it. */
  isolate(ip: string): Promise<void>;
  /** Lets everything pass again; paused connections resume where they stopped. */
  heal(): Promise<void>;
  close(): Promise<void>;
}

interface Reply {
  readonly id: number;
  readonly port?: number;
  readonly error?: string;
}

const CHILD = fileURLToPath(new URL('./partition-relays-process.ts', import.meta.url));

export function startPartitionSwitchboard(): PartitionSwitchboard {
  const child = killedOnExit(fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let next = 0;
  child.on('message', (reply: Reply) => {
    pending.get(reply.id)?.resolve(reply);
    pending.delete(reply.id);
  });
  child.once('exit', (code, signal) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the partition relays exited (${signal ?? code})`));
    pending.clear();
  });
  const ask = (request: Record<string, unknown>): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, ...request });
    }).then((reply) => {
      if (reply.error !== undefined) throw new Error(`partition relays: ${reply.error}`);
      return reply;
    });
  return {
    async relay(host, port) {
      const reply = await ask({ op: 'relay', host, port });
      return reply.port ?? 0;
    },
    async isolate(ip) {
      await ask({ op: 'isolate', ip });
    },
    async heal() {
      await ask({ op: 'heal' });
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ op: 'close' }).catch(() => undefined);
      await exited;
    },
  };
}
