import { createPartitionRelays } from './partition-relays.js';

/**
 * The child process of `startPartitionSwitchboard`: the relays, driven over Node's IPC channel.
 * Each request `{ id, op, host?, port?, ip? }` is answered `{ id, port? }` or `{ id, error }`.
 */
interface Request {
  readonly id: number;
  readonly op: 'relay' | 'isolate' | 'heal' | 'close';
  readonly host?: string;
  readonly port?: number;
  readonly ip?: string;
}

const relays = createPartitionRelays();
const answer = (message: object): void => {
  process.send?.(message);
};

process.on('message', (request: Request) => {
  void (async () => {
    try {
      if (request.op === 'relay') answer({ id: request.id, port: await relays.relay(request.host ?? '', request.port ?? 0) });
      else if (request.op === 'isolate') {
        relays.isolate(request.ip ?? '');
        answer({ id: request.id });
      } else if (request.op === 'heal') {
        relays.heal();
        answer({ id: request.id });
      } else {
        await relays.close();
        answer({ id: request.id });
        process.disconnect?.();
      }
    } catch (error) {
      answer({ id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  })();
});
// The parent went away (a test that timed out): nothing here may outlive it.
process.on('disconnect', () => process.exit(0));
