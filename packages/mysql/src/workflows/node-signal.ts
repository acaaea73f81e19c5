import { type SignalRequest, type SignalResult, WAIT_LANE } from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { finishJobs } from '../jobs/finish/index.ts';
import { keyedById, MISSED } from '../keyed.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { waitingNodeEnd } from './node-wake.ts';

// A wait node's signal (docs/workflows.md "Signals", D45): its job succeeds with the payload as the
// node's output, through the finish path like any end, so the walk gives the payload to its
// children in the signal's transaction. Fenced like an outcome: the job's row lock, then an update
// conditional on its attempt and `pending`; the timeout (node-wake.ts) takes the same lock.

const SIGNAL_READ = loadSql(import.meta.url, './node-signal-read.sql');
const SIGNAL_LOCK = loadSql(import.meta.url, './node-signal-lock.sql');
const SIGNAL_END = loadSql(import.meta.url, './node-signal-end.sql');
const SIGNAL_ATTEMPT = loadSql(import.meta.url, './node-signal-attempt.sql');
const RUN_PARTITION = loadSql(import.meta.url, './run-partition.sql');

export type { SignalRequest, SignalResult };

/** Signals a wait node: in one transaction, its job succeeds and its run walks on. */
export async function signalWaitNode(pool: Pool, req: SignalRequest): Promise<SignalResult> {
  // Keyed by the run's partition (its id's, or its row's for a run stored before the key: keyed.ts).
  const result = await keyedById(pool, req.workflowId, RUN_PARTITION, (partition) =>
    withTransaction(pool, (conn) => signalLocked(conn, req, partition)),
  );
  return result === MISSED ? { result: 'not_found' } : result;
}

async function signalLocked(
  conn: PoolConnection,
  req: SignalRequest,
  partition: number,
): Promise<SignalResult | typeof MISSED> {
  const [nodes] = await conn.query<RowDataPacket[]>(SIGNAL_READ, [
    partition,
    idToBin(req.workflowId),
    req.nodeId,
  ]);
  const node = nodes[0];
  if (!node) return MISSED;
  if (req.tenantId !== undefined && binToId(node.tenant_id) !== req.tenantId) return { result: 'not_found' };
  const jobId = binToId(node.job_id);
  if (req.tokenMatches && !req.tokenMatches(node.signal_hash, jobId)) return { result: 'not_found' };
  if (node.lane !== WAIT_LANE) return { result: 'conflict', issue: 'not a wait node' };
  if (node.run_state !== 'running') return { result: 'conflict', issue: `the run is ${node.run_state}` };
  if (node.state === 'waiting' || node.state === 'ready') {
    return { result: 'conflict', issue: 'not waiting yet: its parents have not finished' };
  }
  if (node.state !== 'pending') return { result: 'conflict', issue: `the node has ended: ${node.state}` };
  const [jobs] = await conn.query<RowDataPacket[]>(SIGNAL_LOCK, [partition, node.job_id]);
  const job = jobs[0];
  if (job?.state !== 'pending') {
    return { result: 'conflict', issue: `the node has ended: ${job?.state ?? 'gone'}` };
  }
  const [ended] = await conn.query<ResultSetHeader>(SIGNAL_END, [partition, job.id, job.attempt]);
  if (ended.affectedRows !== 1) return { result: 'conflict', issue: 'the node has ended' };
  const attempt = Number(job.attempt) + 1;
  await conn.query(SIGNAL_ATTEMPT, [job.id, attempt, `signal: ${req.by}`.slice(0, 128), job.partition]);
  await finishJobs(conn, [
    waitingNodeEnd({ ...job, attempt } as RowDataPacket, 'succeeded', { output: req.payload, error: null }),
  ]);
  return { result: 'signalled', jobId };
}
