import { ClaimLostError } from '@dsched/domain';
import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';

const FINISH_JOB = loadSql(import.meta.url, './finish-job.sql');
const RETRY_JOB = loadSql(import.meta.url, './retry-job.sql');
const FINISH_ATTEMPT = loadSql(import.meta.url, './finish-attempt.sql');

export interface AttemptRecord {
  status: number | null;
  errorClass: string | null;
  error: string | null;
  durationMs: number;
}

export type JobTransition =
  | { to: 'succeeded' | 'dead' | 'failed'; lastStatus: number | null; lastError: string | null }
  | { to: 'retry'; lastStatus: number | null; lastError: string | null; delayMs: number };

/**
 * Applies the outcome of one claim, fenced by its attempt. The attempt row is closed either way
 * (the call happened); the job row changes only if the claim is still current, otherwise
 * ClaimLostError tells the caller its result was dropped.
 */
export async function recordOutcome(
  pool: Pool,
  job: { id: string; attempt: number },
  transition: JobTransition,
  attempt: AttemptRecord,
): Promise<void> {
  const id = idToBin(job.id);
  const applied = await withTransaction(pool, async (conn) => {
    await conn.query(FINISH_ATTEMPT, [
      attempt.status,
      attempt.errorClass,
      attempt.error?.slice(0, 1000) ?? null,
      Math.round(attempt.durationMs),
      id,
      job.attempt,
    ]);
    const lastError = transition.lastError?.slice(0, 1000) ?? null;
    const [res] =
      transition.to === 'retry'
        ? await conn.query<ResultSetHeader>(RETRY_JOB, [
            transition.lastStatus,
            lastError,
            Math.round(transition.delayMs),
            id,
            job.attempt,
          ])
        : await conn.query<ResultSetHeader>(FINISH_JOB, [
            transition.to,
            transition.lastStatus,
            lastError,
            id,
            job.attempt,
          ]);
    return res.affectedRows === 1;
  });
  if (!applied) throw new ClaimLostError(job.id, job.attempt);
}
