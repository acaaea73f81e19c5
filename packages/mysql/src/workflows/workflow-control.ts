import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { keyedById, MISSED } from '../keyed.ts';
import { loadSql, withCaseColumns } from '../sql.ts';
import { releaseTaskQuota, reserveTaskQuota } from '../tasks/task-quota.ts';
import { withTransaction } from '../transaction.ts';
import { releaseRunQuotas } from './run-quota.ts';
import { holdPausedRunJobs, releaseHeldRunJobs } from './workflow-hold.ts';
import { dispatchHeld, type RunKey, runKeys, stepToken, stopRuns } from './workflow-runs.ts';

// A tenant's operations on a run: cancel, pause, resume, retry a node. Each is one short
// transaction under the run's row lock, keyed by the run's partition (keyed.ts: the one its id
// names, or its row's for a run stored before the key), so through vtgate it stays on one shard.

const RUN_LOCK = loadSql(import.meta.url, './run-lock-tenant.sql');
const RUN_PARTITION = loadSql(import.meta.url, './run-partition.sql');
const SET_PAUSED = loadSql(import.meta.url, './run-set-paused.sql');
const RETRY_NODE_LOCK = loadSql(import.meta.url, './retry-node-lock.sql');
const RETRY_DESCENDANTS = loadSql(import.meta.url, './retry-descendants.sql');
const RETRY_MARK = loadSql(import.meta.url, './retry-mark.sql');
const RETRY_RECOUNT = loadSql(import.meta.url, './retry-recount.sql');
const RETRY_RESET = loadSql(import.meta.url, './retry-reset.sql');
const RUN_REOPEN = loadSql(import.meta.url, './run-reopen.sql');

/** Nodes one statement of a retry's reset takes. */
const RETRY_CHUNK = 1000;

export type RunOperationResult = 'done' | 'not_found' | 'not_running';

/**
 * Runs `operation` in a transaction under the tenant's run's row lock, keyed by the run's
 * partition; `not_found` when the tenant has no such run (another tenant's run is not found
 * either). A run stored before the key that the keyed lock misses is looked up by its row.
 */
async function onRun<T>(
  pool: Pool,
  tenantId: string,
  id: string,
  operation: (conn: PoolConnection, run: RowDataPacket) => Promise<T>,
): Promise<T | 'not_found'> {
  const result = await keyedById(pool, id, RUN_PARTITION, (partition) =>
    withTransaction(pool, async (conn) => {
      const [rows] = await conn.query<RowDataPacket[]>(RUN_LOCK, [partition, idToBin(id), idToBin(tenantId)]);
      const run = rows[0];
      return run ? operation(conn, run) : MISSED;
    }),
  );
  return result === MISSED ? 'not_found' : result;
}

/**
 * Cancels a running run: nothing not started runs, running calls are aborted. `reason` is the
 * last_error of the node jobs it cancels (default `workflow cancelled`).
 */
export async function cancelWorkflow(
  pool: Pool,
  tenantId: string,
  id: string,
  reason?: string,
): Promise<RunOperationResult> {
  let ended: RunKey[] = [];
  const result = await onRun(pool, tenantId, id, async (conn, run) => {
    if (run.state !== 'running') return 'not_running';
    ended = runKeys([run]);
    await stopRuns(conn, ended, 'cancelled', reason ? { reason } : {});
    return 'done';
  });
  // Its place in the quota, after the commit (run-quota.ts, D61); left to the reconciler's pass if
  // this fails.
  if (result === 'done') await releaseRunQuotas(pool, ended).catch(() => undefined);
  return result;
}

/**
 * Pauses or resumes a running run. Pausing holds the node jobs already made and not started;
 * resuming releases them and dispatches what became ready meanwhile.
 */
export async function setWorkflowPaused(
  pool: Pool,
  tenantId: string,
  id: string,
  paused: boolean,
): Promise<RunOperationResult> {
  return onRun(pool, tenantId, id, async (conn, run) => {
    if (run.state !== 'running') return 'not_running';
    await conn.query(SET_PAUSED, [paused ? 1 : 0, Number(run.partition), run.id]);
    if (paused) {
      await holdPausedRunJobs(conn, runKeys([run]));
    } else {
      await releaseHeldRunJobs(conn, runKeys([run])[0]!);
      await dispatchHeld(conn, runKeys([run]), { onlyCapped: false });
    }
    return 'done';
  });
}

export type RetryResult =
  | RunOperationResult
  | 'archived'
  | 'node_not_found'
  | 'node_not_retryable'
  | 'over_quota';

/**
 * Re-runs a node that did not succeed, and resets its descendants that did not succeed to wait for
 * it again; succeeded nodes never run again. The node's job, if its row is still here, comes back as
 * a new attempt group (same id and Idempotency-Key, attempts keep counting). A finished run is
 * running again (and counts against the tenant's quota again).
 *
 * The reset set is found level by level through the edges, marked in the rows by a token (so no
 * visited set is kept here); its node ids are held to recount their parents once all are marked.
 */
export async function retryWorkflowNode(
  pool: Pool,
  tenantId: string,
  id: string,
  nodeId: string,
): Promise<RetryResult> {
  // A finished run's place in the quota is reserved on the tenant's row in a statement of its own
  // while the run's transaction is open, and given back if that transaction does not commit
  // (task-quota.ts): never one transaction over the global keyspace and a shard.
  let reserved: Buffer | null = null;
  const giveBack = async () => {
    const tenant = reserved;
    reserved = null;
    if (tenant) await releaseTaskQuota(pool, tenant, 1).catch(() => undefined);
  };
  try {
    return await onRun(pool, tenantId, id, async (conn, run) => {
      await giveBack(); // a retried transaction's earlier reservation
      return retryNode(pool, conn, run, nodeId, (tenant) => {
        reserved = tenant;
      });
    });
  } catch (err) {
    await giveBack();
    throw err;
  }
}

async function retryNode(
  pool: Pool,
  conn: PoolConnection,
  run: RowDataPacket,
  nodeId: string,
  reservedFor: (tenant: Buffer) => void,
): Promise<RetryResult> {
  // Moved to history (its rows are being deleted): nothing of it runs again (decision D29).
  if (run.archived_at !== null) return 'archived';
  const wf = run.id as Buffer;
  const partition = Number(run.partition);
  const [nodes] = await conn.query<RowDataPacket[]>(RETRY_NODE_LOCK, [partition, wf, nodeId]);
  const node = nodes[0];
  if (!node) return 'node_not_found';
  if (!['dead', 'upstream_failed', 'skipped', 'cancelled'].includes(node.state)) return 'node_not_retryable';
  if (run.state !== 'running') {
    if (!(await reserveTaskQuota(pool, run.tenant_id as Buffer, 1))) return 'over_quota';
    reservedFor(run.tenant_id as Buffer);
    await conn.query(RUN_REOPEN, [partition, wf]);
  }
  const token = stepToken();
  await conn.query(RETRY_MARK, [token, partition, wf, [nodeId]]);
  const reset: string[] = [nodeId];
  let frontier = [nodeId];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < frontier.length; i += RETRY_CHUNK) {
      const chunk = frontier.slice(i, i + RETRY_CHUNK);
      for (;;) {
        const [rows] = await conn.query<RowDataPacket[]>(RETRY_DESCENDANTS, [
          partition,
          wf,
          chunk,
          token,
          RETRY_CHUNK,
        ]);
        if (rows.length === 0) break;
        const ids = rows.map((r) => String(r.node_id));
        await conn.query(RETRY_MARK, [token, partition, wf, ids]);
        next.push(...ids);
      }
    }
    reset.push(...next);
    frontier = next;
  }
  for (let i = 0; i < reset.length; i += RETRY_CHUNK) {
    const chunk = reset.slice(i, i + RETRY_CHUNK);
    const [counts] = await conn.query<RowDataPacket[]>(RETRY_RECOUNT, [token, partition, wf, chunk]);
    const byNode = new Map(counts.map((c) => [String(c.child_id), c]));
    const statement = withCaseColumns(
      RETRY_RESET,
      chunk.map((n) => {
        const c = byNode.get(n);
        const unfinished = Number(c?.unfinished ?? 0);
        return [n, unfinished, Number(c?.failed ?? 0), Number(c?.skipped ?? 0), unfinished];
      }),
      [partition, wf, chunk, token],
    );
    await conn.query(statement.sql, statement.params);
  }
  await dispatchHeld(conn, [{ id: wf, partition }], { onlyCapped: false });
  return 'done';
}
