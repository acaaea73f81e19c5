import type { JobRecord } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';
import { loadJobRecords } from '../index.ts';

const SELECT_ARCHIVABLE = loadSql(import.meta.url, './archivable-select.sql');
const ARCHIVE_DELETE = loadSql(import.meta.url, './archive-delete.sql');
const ARCHIVER_LAG = loadSql(import.meta.url, './archiver-lag.sql');

/** archivable-select.sql. */
interface ArchivableRow extends RowDataPacket {
  id: Buffer;
  finished_at: Date;
}

/** archiver-lag.sql. */
interface LagRow extends RowDataPacket {
  succeeded: Date | null;
  cancelled: Date | null;
  dead: Date | null;
  db_now: Date;
}

/** ready-backlog-capped.sql. */
interface BacklogRow extends RowDataPacket {
  n: number;
}

/**
 * Terminal jobs of a group of partitions (one shard on Vitess, docs/sharding.md) ready for history,
 * oldest first, with their attempts.
 */
export async function selectArchivableJobs(
  pool: Pool,
  args: { limit: number; deadRetentionSeconds: number; partitions: readonly number[] },
): Promise<JobRecord[]> {
  const [rows] = await pool.query<ArchivableRow[]>(SELECT_ARCHIVABLE, [
    args.partitions,
    args.limit,
    args.partitions,
    args.limit,
    args.deadRetentionSeconds,
    args.partitions,
    args.limit,
  ]);
  const oldest = rows.sort((a, b) => a.finished_at.getTime() - b.finished_at.getTime()).slice(0, args.limit);
  return loadJobRecords(
    pool,
    oldest.map((r) => r.id),
    args.partitions,
  );
}

/**
 * Deletes jobs written to history, fenced by the attempt that was written: a job redriven and
 * run again since is not deleted. `partitions` is the group they were selected in. Returns the
 * rows deleted (jobs, their attempts and tag rows).
 */
export async function deleteArchivedJobs(
  pool: Pool,
  jobs: { id: string; attempt: number }[],
  partitions: readonly number[],
): Promise<number> {
  if (jobs.length === 0) return 0;
  const sorted = [...jobs].sort((a, b) => (a.id < b.id ? -1 : 1));
  const [res] = await pool.query<ResultSetHeader>(ARCHIVE_DELETE, [
    partitions,
    sorted.map((j) => idToBin(j.id)),
    sorted.map((j) => [idToBin(j.id), j.attempt]),
  ]);
  return res.affectedRows;
}

/** Seconds since the oldest job waiting for the archiver became archivable (0 when none waits). */
export async function archiverLagSeconds(pool: Pool, deadRetentionSeconds: number): Promise<number> {
  const [rows] = await pool.query<LagRow[]>(ARCHIVER_LAG, [deadRetentionSeconds]);
  const { succeeded, cancelled, dead, db_now } = rows[0]!;
  // A dead job became archivable when its retention ran out.
  const since = [
    succeeded?.getTime(),
    cancelled?.getTime(),
    dead && dead.getTime() + deadRetentionSeconds * 1000,
  ];
  const oldest = Math.min(db_now.getTime(), ...since.filter((t): t is number => typeof t === 'number'));
  return Math.max(0, (db_now.getTime() - oldest) / 1000);
}

const READY_BACKLOG_CAPPED = loadSql(import.meta.url, './ready-backlog-capped.sql');

/** Pending jobs already due, counted up to `cap` (the cost stays bounded by the cap). */
export async function readyBacklogUpTo(pool: Pool, cap: number): Promise<number> {
  const [rows] = await pool.query<BacklogRow[]>(READY_BACKLOG_CAPPED, [cap]);
  return Number(rows[0]!.n);
}
