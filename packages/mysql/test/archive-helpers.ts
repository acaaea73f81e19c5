import { allPartitions, DEFAULT_PARTITIONS } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { deleteArchivedJobs, selectArchivableJobs } from '../src/jobs/archive/archive.ts';

const EVERY = allPartitions(DEFAULT_PARTITIONS);

/** Tries a delete with a stale attempt, then with the archived one; returns rows deleted by each. */
export async function archiveRowsFor(pool: Pool, id: string): Promise<{ stale: number; current: number }> {
  const records = await selectArchivableJobs(pool, {
    limit: 10,
    deadRetentionSeconds: 3600,
    partitions: EVERY,
  });
  const record = records.find((r) => r.view.id === id);
  if (!record) throw new Error('job not archivable');
  const stale = await deleteArchivedJobs(pool, [{ id, attempt: record.view.attempt + 1 }], EVERY);
  const current = await deleteArchivedJobs(pool, [{ id, attempt: record.view.attempt }], EVERY);
  const [left] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM job_attempts');
  if (Number(left[0]!.n) !== 0) throw new Error('attempt rows left behind');
  return { stale, current };
}
