import { nodeOutputJson } from '@dsched/domain';
import type { PoolConnection } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { type JobEnd, partitionsOfEnds } from '../jobs/finish/index.ts';
import { loadSql, withRows } from '../sql.ts';

const NODE_OUTPUTS_UPSERT = loadSql(import.meta.url, './node-outputs-upsert.sql');

/** The most bytes of outputs one statement carries (well under max_allowed_packet, 16 MiB on MariaDB). */
const MAX_OUTPUT_BATCH_BYTES = 4 * 1024 * 1024;

/** A node's output from its job's end: a 202 job's report as it is, a call's body as JSON text. */
function outputOf(end: JobEnd): string | null {
  if (end.report) return end.report.output;
  if (end.responseBody === undefined || end.responseBody === null) return null;
  return nodeOutputJson(end.responseBody);
}

/**
 * Keeps the outputs of the node jobs in `ends` that finished with one (succeeded, or dead on a
 * status; a 202 node's completion report), in the caller's transaction: the same upsert for every
 * way a node ends, so an older attempt never overwrites a newer one. One statement for a batch of
 * ordinary outputs; a batch of large ones is split at MAX_OUTPUT_BATCH_BYTES. A report is already
 * capped by job-api (MAX_CALLBACK_DOC_BYTES, under any output cap).
 */
export async function keepNodeOutputs(conn: PoolConnection, ends: readonly JobEnd[]): Promise<void> {
  let rows: unknown[][] = [];
  let bytes = 0;
  const partitions = partitionsOfEnds(ends);
  const flush = async () => {
    if (rows.length === 0) return;
    const upsert = withRows(
      NODE_OUTPUTS_UPSERT,
      ['workflow_id', 'node_id', 'attempt', 'output', 'job_id'],
      rows,
    );
    await conn.query(upsert.sql, [...upsert.params, partitions]);
    rows = [];
    bytes = 0;
  };
  for (const end of ends) {
    if (!end.workflowNode || (end.state !== 'succeeded' && end.state !== 'dead')) continue;
    const output = outputOf(end);
    if (output === null) continue;
    if (bytes + output.length > MAX_OUTPUT_BATCH_BYTES) await flush();
    rows.push([
      idToBin(end.workflowNode.workflowId),
      end.workflowNode.nodeId,
      end.attempt,
      output,
      idToBin(end.id),
    ]);
    bytes += output.length;
  }
  await flush();
}
