import { CALLBACK_RETRY, CALLBACK_TIMEOUT_MS, cappedResponseBody, newIdBeside } from '@dsched/domain';
import type { ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { loadSql, withRows } from '../../sql.ts';
import { type FollowUp, finalOutcomes, type JobEnd, partitionsOfEnds } from '../finish/job-end.ts';

// A job's final outcome, reported (docs/callbacks.md): a callback job POSTs a signed event to its
// task's onSuccess or onDead URL. One statement for the batch; it checks each job's state itself.

const CALLBACKS = loadSql(import.meta.url, './follow-up-callbacks.sql');

/** What the event carries of the call: its capped response body, or a 202 job's report. */
function reportedBody(end: JobEnd): string | null {
  if (end.responseBody !== undefined && end.responseBody !== null) return end.responseBody;
  const report = end.report ? (end.report.output ?? end.report.error) : null;
  return report === null ? null : cappedResponseBody(Buffer.from(report));
}

export const callbackJobs: FollowUp = {
  name: 'callback jobs',
  phase: 'record',
  async run(conn, ends, context) {
    const calling = finalOutcomes(ends).filter((e) => e.followUps?.callbacks);
    if (calling.length === 0) return;
    const now = Date.now();
    const { sql, params } = withRows(
      CALLBACKS,
      ['job_id', 'callback_id', 'response_body'],
      // A callback job's id carries its job's partition, as its row does (docs/sharding.md).
      calling.map((e) => [idToBin(e.id), idToBin(newIdBeside(e.id, now)), reportedBody(e)]),
    );
    const [res] = await conn.query<ResultSetHeader>(sql, [
      CALLBACK_RETRY.maxAttempts,
      CALLBACK_TIMEOUT_MS,
      JSON.stringify(CALLBACK_RETRY),
      ...params,
      partitionsOfEnds(calling),
    ]);
    context.callbackJobs += res.affectedRows;
  },
};
