import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { type JobRecord, loadJobRecords } from './job-records.ts';

const SELECT_ARCHIVABLE = loadSql(import.meta.url, './archivable-select.sql');
const ARCHIVE_DELETE = loadSql(import.meta.url, './archive-delete.sql');

/** Terminal jobs ready for history, with their attempts. */
export async function selectArchivableJobs(
  pool: Pool,
  args: { limit: number; deadRetentionSeconds: number },
): Promise<JobRecord[]> {
  const [rows] = await pool.query<RowDataPacket[]>(SELECT_ARCHIVABLE, [
    args.deadRetentionSeconds,
    args.limit,
  ]);
  return loadJobRecords(
    pool,
    rows.map((r) => r.id as Buffer),
  );
}

/**
 * Deletes jobs written to history, fenced by the attempt that was written: a job redriven and
 * run again since is not deleted. Returns the rows deleted (jobs and their attempts).
 */
export async function deleteArchivedJobs(
  pool: Pool,
  jobs: { id: string; attempt: number }[],
): Promise<number> {
  if (jobs.length === 0) return 0;
  const sorted = [...jobs].sort((a, b) => (a.id < b.id ? -1 : 1));
  const [res] = await pool.query<ResultSetHeader>(ARCHIVE_DELETE, [
    sorted.map((j) => [idToBin(j.id), j.attempt]),
  ]);
  return res.affectedRows;
}
