import {
  CALLBACK_RETRY,
  CALLBACK_TIMEOUT_MS,
  type FinishFollowUps,
  type FollowUpReport,
  newId,
} from '@dsched/domain';
import type { PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { binToId, idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';

// What a job's final outcome sets off besides itself (docs/callbacks.md, docs/scheduling.md#pause-
// on-failure): its callback job, and its task's failure streak with the pause it may reach. Run in
// the transaction that records the outcome, after the fenced job update, so each happens exactly
// once per final outcome whatever crashes around it; a batch with no such job runs nothing here.

const CALLBACKS = loadSql(import.meta.url, './follow-up-callbacks.sql');
const STREAK = loadSql(import.meta.url, './follow-up-streak.sql');
const PAUSE = loadSql(import.meta.url, './follow-up-pause.sql');
const SUPERSEDE = loadSql(import.meta.url, './follow-up-supersede.sql');

/** A finished job whose row says it has follow-ups, and the capped body of its last response. */
export interface FinishedJob {
  id: string;
  followUps: FinishFollowUps;
  responseBody?: string | null | undefined;
}

export const NO_FOLLOW_UPS: FollowUpReport = { callbackJobs: 0, pausedTasks: 0 };

/**
 * The columns every finishing path reads with a job to know its follow-ups (claim-read.sql,
 * control-lock.sql, the reconciler's selects).
 */
export interface FollowUpColumns {
  task_id: Buffer | null;
  /** callbacks IS NOT NULL */
  has_callbacks: number;
  counts_failures: number;
}

/** A job row's follow-ups; null when it has none. */
export function followUpsOfRow(r: FollowUpColumns): FinishFollowUps | null {
  const callbacks = Number(r.has_callbacks) === 1;
  const countsFailures = Number(r.counts_failures) === 1;
  if ((!callbacks && !countsFailures) || r.task_id === null) return null;
  return { taskId: binToId(r.task_id), callbacks, countsFailures };
}

/**
 * One statement per kind of follow-up for the whole batch. The statements themselves check that
 * each job ended succeeded or dead, so a caller may pass every job its outcome batch finished.
 */
export async function followUpFinishedJobs(
  conn: PoolConnection,
  finished: FinishedJob[],
  now: Date = new Date(),
): Promise<FollowUpReport> {
  const report = { ...NO_FOLLOW_UPS };
  const calling = finished.filter((f) => f.followUps.callbacks);
  if (calling.length > 0) {
    const document = JSON.stringify(
      calling.map((f) => [
        f.id.replaceAll('-', ''),
        newId(now.getTime()).replaceAll('-', ''),
        f.responseBody ?? null,
      ]),
    );
    const [res] = await conn.query<ResultSetHeader>(CALLBACKS, [
      CALLBACK_RETRY.maxAttempts,
      CALLBACK_TIMEOUT_MS,
      JSON.stringify(CALLBACK_RETRY),
      document,
    ]);
    report.callbackJobs = res.affectedRows;
  }
  const counting = finished.filter((f) => f.followUps.countsFailures);
  if (counting.length > 0) {
    const ids = counting.map((f) => idToBin(f.id));
    await conn.query(STREAK, [ids, ids]);
    const tasks = [...new Set(counting.map((f) => f.followUps.taskId))].sort().map(idToBin);
    const [paused] = await conn.query<ResultSetHeader>(PAUSE, [tasks]);
    report.pausedTasks = paused.affectedRows;
    if (paused.affectedRows > 0) await conn.query(SUPERSEDE, [tasks]);
  }
  return report;
}
