/**
 * Runs a store call again after a transient conflict, with a short jittered pause, until the
 * deadline (epoch ms). The store decides what is transient: only an error that means the
 * statement or transaction that met it changed nothing (SQLITE_BUSY; a deadlock victim, which
 * the database rolled back whole). A store may use this only if every operation writes in one
 * statement or one transaction, its last step, so running the call again cannot apply a
 * change twice. Any other error, or one met with no time left for a pause, is thrown as is.
 */
export async function retryTransientConflicts<T>(run: () => Promise<T>, deadline: number, isTransient: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      // From about 1 ms up to 20 ms, so two processes waiting on one lock do not retry in
      // lock-step. An attempt costs microseconds (no busy wait in a driver): polling this often is cheap.
      const pause = Math.min(20, 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2);
      if (!isTransient(error) || Date.now() + pause >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
