import { nodeOutputJson, type OutcomeWrite } from '@dsched/domain';
import type { PoolConnection } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';

const NODE_OUTPUTS_UPSERT = loadSql(import.meta.url, './node-outputs-upsert.sql');

/** The most bytes of outputs one statement carries (well under max_allowed_packet, 16 MiB on MariaDB). */
const MAX_OUTPUT_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Keeps the response bodies of the node jobs in `applied` (writes whose fenced update matched) that
 * finished with one (succeeded, or dead on a status), in the caller's transaction. One statement for
 * a batch of ordinary outputs; a batch of large ones is split at MAX_OUTPUT_BATCH_BYTES.
 */
export async function keepNodeOutputs(conn: PoolConnection, applied: readonly OutcomeWrite[]): Promise<void> {
  let rows: unknown[][] = [];
  let bytes = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    const values = new Array(rows.length).fill('(?, ?, ?, ?, NOW(3))').join(', ');
    await conn.query(NODE_OUTPUTS_UPSERT.replace(':rows', values), rows.flat());
    rows = [];
    bytes = 0;
  };
  for (const { job, transition, responseBody } of applied) {
    if (!job.workflowId || !job.nodeId || responseBody === undefined || responseBody === null) continue;
    if (transition.to !== 'succeeded' && transition.to !== 'dead') continue;
    const output = nodeOutputJson(responseBody);
    if (bytes + output.length > MAX_OUTPUT_BATCH_BYTES) await flush();
    rows.push([idToBin(job.workflowId), job.nodeId, job.attempt, output]);
    bytes += output.length;
  }
  await flush();
}

/**
 * Keeps one node's output from a completion through job-api (a 202 node's report), in the
 * caller's transaction: the same upsert, so an older attempt never overwrites a newer one. The
 * report is a JSON document already capped by job-api (MAX_CALLBACK_DOC_BYTES, under any output cap).
 */
export async function keepNodeOutput(
  conn: PoolConnection,
  node: { workflowId: string; nodeId: string; attempt: number; output: string },
): Promise<void> {
  await conn.query(NODE_OUTPUTS_UPSERT.replace(':rows', '(?, ?, ?, ?, NOW(3))'), [
    idToBin(node.workflowId),
    node.nodeId,
    node.attempt,
    node.output,
  ]);
}
