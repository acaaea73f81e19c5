import {
  allPartitions,
  DEFAULT_PARTITIONS,
  laneFor,
  MAP_LANE,
  MAP_SLICE_ITEMS,
  mapItemId,
  mapItemsFailed,
  mapItemTarget,
  mapOutput,
  mapOutputFits,
  newId,
  nodeParentsUrl,
  priorityFromRank,
  readMapItems,
  type Target,
} from '@dsched/domain';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { finishJobs } from '../jobs/finish/index.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { type EdgeRow, insertEdgeRows, insertNodeRows, type NodeRow, nodeRowBytes } from './node-rows.ts';
import { dispatchHeld } from './workflow-runs.ts';

// Map nodes (docs/workflows.md "Map nodes", D49), the storage side. A map node's job is in lane
// 'map', which no executor claims, due when the walk makes the node pending. The node waker takes
// a due one per transaction and, from durable state only, does the next step:
// - not started: reads the parent's output; not an array (or too long) ends the node dead, an
//   empty one succeeds it; else the node waits on its items (map-start.sql) and the first slice
//   is made;
// - started, items left to make: the next slice of MAP_SLICE_ITEMS item nodes, their edges to the
//   map node and their jobs, and the cursor moved (map-slice.sql), all in one transaction;
// - made and waiting on its items: nothing (the job is parked; the walk makes it due at once when
//   the last item ends and decides the node pending, node-jobs-revive.sql);
// - pending again (every item ended): ends the job through the finish path, succeeded with the
//   items' outputs, or dead when an item did not succeed; the walk tells its children.
// A crash anywhere rolls the step back whole, and the next waker redoes it: items are made once
// (the cursor's fence) and each keeps the job id it was stored with, its Idempotency-Key.
// Every statement of a step is keyed by the run's partition, which the map job's row carries
// (docs/sharding.md): a step's transaction stays on its run's shard.

const MAP_READ = loadSql(import.meta.url, './map-read.sql');
const MAP_RUN_READ = loadSql(import.meta.url, './map-run-read.sql');
const PARENT_OUTPUT = loadSql(import.meta.url, './map-parent-output.sql');
const MAP_START = loadSql(import.meta.url, './map-start.sql');
const MAP_SLICE = loadSql(import.meta.url, './map-slice.sql');
const MAP_PARK = loadSql(import.meta.url, './map-park.sql');
const RUN_GROW = loadSql(import.meta.url, './map-run-grow.sql');
const ITEM_JOBS_INSERT = loadSql(import.meta.url, './map-item-jobs-insert.sql');
const ITEM_JOB_TAGS = loadSql(import.meta.url, './map-item-job-tags.sql');
const ITEM_OUTPUT_BYTES = loadSql(import.meta.url, './map-item-output-bytes.sql');
const ITEM_OUTPUTS = loadSql(import.meta.url, './map-item-outputs.sql');
const WAKE_SELECT = loadSql(import.meta.url, './node-wake-select.sql');
const WAKE_END = loadSql(import.meta.url, './node-wake-end.sql');

/** What a map step needs beyond the database: the node output cap and where items are paged. */
export interface MapOptions {
  /** EXECUTOR_MAX_OUTPUT_BYTES: past it, the map node's output is a reference to its items. */
  maxOutputBytes: number;
  /** EXECUTOR_TASK_API_URL: the base of that reference. */
  taskApiUrl: string;
  /** How long a map node waiting on its items sleeps before it looks again (a safety net). */
  parkMs?: number;
}

const DEFAULT_PARK_MS = 5_000;

/** What one step did, for the waker's report and its metric. */
export type MapStep = 'none' | 'started' | 'slice' | 'parked' | 'ended';

/**
 * Takes one due map node's job (SKIP LOCKED: wakers never take the same) and does its next step in
 * the caller's transaction, of the group `partitions` (the waker's: one shard on Vitess; without
 * it, every partition of the default count, for tests). 'none' when no map job is due.
 */
export async function stepDueMap(
  conn: PoolConnection,
  options: MapOptions,
  partitions: readonly number[] = allPartitions(DEFAULT_PARTITIONS),
): Promise<MapStep> {
  const [due] = await conn.query<RowDataPacket[]>(WAKE_SELECT, [MAP_LANE, partitions, 1]);
  if (due.length === 0) return 'none';
  const [rows] = await conn.query<RowDataPacket[]>(MAP_READ, [Number(due[0]!.partition), due[0]!.id]);
  const m = rows[0];
  if (!m) return 'none';
  const started = m.map_count !== null;
  const starting = m.node_state === 'pending' && !started;
  const [runs] = await conn.query<RowDataPacket[]>(
    MAP_RUN_READ.replace('%LOCK%', starting ? 'FOR UPDATE' : ''),
    [Number(m.partition), m.workflow_id],
  );
  const run = runs[0];
  const parkMs = options.parkMs ?? DEFAULT_PARK_MS;
  if (run?.state !== 'running') return endMap(conn, m, 'cancelled', `the run is ${run?.state ?? 'gone'}`);
  const slicesLeft = started && Number(m.map_made) < Number(m.map_count);
  if (starting) {
    if (Number(run.paused) === 1) return park(conn, m, parkMs);
    return startMap(conn, m, run, parkMs);
  }
  if (m.node_state === 'waiting' && slicesLeft) {
    if (Number(run.paused) === 1) return park(conn, m, parkMs);
    await makeSlice(conn, m, run, await parentItems(conn, m), parkMs);
    return 'slice';
  }
  if (m.node_state === 'pending') return finishMap(conn, m, options);
  if (m.node_state === 'waiting' || m.node_state === 'ready') return park(conn, m, parkMs);
  // The node ended without its job (its run was cancelled or failed fast while it waited).
  return endMap(conn, m, 'cancelled', `the node ended ${m.node_state}`);
}

async function parentItems(conn: PoolConnection, m: RowDataPacket): Promise<ReturnType<typeof readMapItems>> {
  const [out] = await conn.query<RowDataPacket[]>(PARENT_OUTPUT, [
    Number(m.partition),
    m.workflow_id,
    m.map_over,
  ]);
  const output = out[0]?.output;
  const text =
    output === undefined || output === null
      ? null
      : typeof output === 'string'
        ? output
        : JSON.stringify(output);
  return readMapItems(text, m.map_over, Number(m.map_max_items));
}

async function startMap(
  conn: PoolConnection,
  m: RowDataPacket,
  run: RowDataPacket,
  parkMs: number,
): Promise<MapStep> {
  const read = await parentItems(conn, m);
  if ('error' in read) return endMap(conn, m, 'dead', read.error);
  if (read.items.length === 0) return endMap(conn, m, 'succeeded', null, '[]');
  const [started] = await conn.query<ResultSetHeader>(MAP_START, [
    read.items.length,
    Number(m.partition),
    m.workflow_id,
    m.node_id,
  ]);
  if (started.affectedRows !== 1) throw new Error(`map node ${m.node_id} changed under its lock`);
  await makeSlice(
    conn,
    { ...m, node_state: 'waiting', map_count: read.items.length, map_made: 0 },
    run,
    read,
    parkMs,
  );
  return 'started';
}

/** The next slice of item nodes: rows, edges to the map node, their jobs (or `ready`), the cursor. */
async function makeSlice(
  conn: PoolConnection,
  m: RowDataPacket,
  run: RowDataPacket,
  read: ReturnType<typeof readMapItems>,
  parkMs: number,
): Promise<void> {
  const count = Number(m.map_count);
  // The parent's output is durable and final (the node is reached only once its parents ended),
  // so every slice reads the same array.
  if ('error' in read || read.items.length !== count)
    throw new Error(`map node ${m.node_id}: its parent's output changed`);
  const from = Number(m.map_made);
  const to = Math.min(count, from + MAP_SLICE_ITEMS);
  const target = readJson<Target>(m.target);
  const priority = priorityFromRank(Number(m.priority));
  const lane = laneFor(priority, target.timeoutMs);
  const retry = JSON.stringify(readJson(m.retry));
  const nowMs = new Date(m.db_now).getTime();
  // With a maxParallel, items wait for dispatch like any node the walk makes runnable.
  const state = run.max_parallel === null ? 'pending' : 'ready';
  const ids: string[] = [];
  const rows: NodeRow[] = [];
  for (let i = from; i < to; i++) {
    const id = mapItemId(m.node_id, i, count);
    ids.push(id);
    const itemTarget = JSON.stringify(mapItemTarget(target, read.items[i], i));
    const values = [
      m.workflow_id,
      id,
      idToBin(newId(nowMs, Number(m.partition))),
      state,
      'all_success',
      0,
      0,
      Number(m.priority),
      lane,
      Number(m.max_attempts),
      itemTarget,
      retry,
      'none',
      m.flow_key,
      m.flow_parallelism,
      m.flow_rate === null ? null : Number(m.flow_rate),
      1,
      null,
      null,
      null,
      null,
      null,
      Number(m.partition),
    ];
    rows.push({ values, bytes: nodeRowBytes(itemTarget) });
  }
  await insertNodeRows(conn, rows);
  await insertEdgeRows(
    conn,
    ids.map((id): EdgeRow => [m.workflow_id as Buffer, id, String(m.node_id), Number(m.partition)]),
  );
  const first = ids[0]!;
  const last = ids[ids.length - 1]!;
  if (state === 'pending') {
    await conn.query(ITEM_JOBS_INSERT, [Number(m.partition), m.workflow_id, first, last]);
    await conn.query(ITEM_JOB_TAGS, [first, last, Number(m.partition), m.workflow_id]);
  }
  const isLast = to === count ? 1 : 0;
  const made = to - from;
  const [moved] = await conn.query<ResultSetHeader>(MAP_SLICE, [
    made,
    made,
    made,
    isLast,
    Number(m.partition),
    m.workflow_id,
    m.node_id,
    from,
  ]);
  if (moved.affectedRows !== 1) throw new Error(`map node ${m.node_id}: its slice was made by another waker`);
  if (state === 'ready')
    await dispatchHeld(conn, [{ id: m.workflow_id, partition: Number(m.partition) }], { onlyCapped: true });
  // The last slice's own items are still to run (made in this transaction), so the walk decides
  // the node when the last item ends; until then its job has nothing to do.
  if (isLast === 1) await park(conn, m, parkMs);
  await conn.query(RUN_GROW, [made, made, Number(m.partition), m.workflow_id]);
}

/** Every item ended and the walk made the node pending: it ends, by its items' outcomes. */
async function finishMap(conn: PoolConnection, m: RowDataPacket, options: MapOptions): Promise<MapStep> {
  const count = Number(m.map_count);
  const failed = Number(m.failed_parents) + Number(m.skipped_parents);
  if (failed > 0) return endMap(conn, m, 'dead', mapItemsFailed(failed, count));
  const first = mapItemId(m.node_id, 0, count);
  const last = mapItemId(m.node_id, count - 1, count);
  const [sizes] = await conn.query<RowDataPacket[]>(ITEM_OUTPUT_BYTES, [
    Number(m.partition),
    m.workflow_id,
    first,
    last,
  ]);
  let outputs: (string | null)[] | null = null;
  if (mapOutputFits(Number(sizes[0]?.bytes ?? 0), count, options.maxOutputBytes)) {
    const [rows] = await conn.query<RowDataPacket[]>(ITEM_OUTPUTS, [
      Number(m.partition),
      m.workflow_id,
      first,
      last,
    ]);
    outputs = rows.map((r) =>
      r.output === null || r.output === undefined
        ? null
        : typeof r.output === 'string'
          ? r.output
          : JSON.stringify(r.output),
    );
  }
  const url = nodeParentsUrl(options.taskApiUrl, binToId(m.workflow_id), m.node_id);
  return endMap(conn, m, 'succeeded', null, mapOutput(outputs, count, url));
}

/** Ends the map node's job without a call and runs the finish path (the walk) in the transaction. */
async function endMap(
  conn: PoolConnection,
  m: RowDataPacket,
  state: 'succeeded' | 'dead' | 'cancelled',
  error: string | null,
  output?: string,
): Promise<MapStep> {
  const [ended] = await conn.query<ResultSetHeader>(WAKE_END, [state, error, [Number(m.partition)], [m.id]]);
  if (ended.affectedRows !== 1) return 'none';
  await finishJobs(conn, [
    {
      id: binToId(m.id),
      attempt: Number(m.attempt),
      partition: Number(m.partition),
      state,
      followUps: null,
      workflowNode: { workflowId: binToId(m.workflow_id), nodeId: m.node_id, partition: Number(m.partition) },
      report: output === undefined ? null : { output, error },
    },
  ]);
  return 'ended';
}

async function park(conn: PoolConnection, m: RowDataPacket, ms: number): Promise<MapStep> {
  await conn.query(MAP_PARK, [ms, Number(m.partition), m.id]);
  return 'parked';
}
