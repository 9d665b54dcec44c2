import type { SessauthPrismaTransaction } from '../client/prisma-like.js';
import type { ProviderSql } from '../provider/provider-sql.js';
import { afterSwap, type RotateValues, rotateWhere, type SwapResult } from './rotate-outcome.js';
import { sessionRecordFromModelRow } from '@sessauth/core/store';

/**
 * The compare-and-swap as one conditional UPDATE: `updateManyAndReturn` where the engine has
 * RETURNING, else `updateMany` and a re-read of the row (MySQL).
 */
export async function swap(executor: SessauthPrismaTransaction, sql: ProviderSql, values: RotateValues): Promise<SwapResult> {
  const update = { where: rotateWhere(values), data: { refreshJti: values.nextJti, lastActivityAt: values.now } };
  const returning = executor.sessauthSession.updateManyAndReturn;
  if (sql.updateReturning && returning !== undefined) {
    const [row] = await returning.call(executor.sessauthSession, update);
    return row === undefined ? 'no_swap' : sessionRecordFromModelRow(row);
  }
  if ((await executor.sessauthSession.updateMany(update)).count !== 1) return 'no_swap';
  const row = await executor.sessauthSession.findUnique({ where: { id: values.id } });
  return row === null ? null : afterSwap(sessionRecordFromModelRow(row), values);
}
