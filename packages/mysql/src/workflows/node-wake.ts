import {
  allPartitions,
  DEFAULT_PARTITIONS,
  type NodeKind,
  SLEEP_LANE,
  type Target,
  WAIT_LANE,
  waitTimeoutOutcome,
} from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId } from '../ids.ts';
import { finishJobs, type JobEnd } from '../jobs/finish/index.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { type MapOptions, stepDueMap } from './map-expand.ts';

// Sleep and wait nodes (docs/workflows.md "Nodes that wait", D45): their jobs are node jobs of
// lanes no executor claims, due at their wake time (a sleep's end, a wait's timeout) through the
// claim index like every job. The node waker (the executor's wake loop) locks the due ones, ends
// each with a fenced update and no call, and runs the finish path in the same transaction, so the
// walk tells their children at once: a sleep succeeds; a wait at its timeout fails or succeeds
// by its `onTimeout`.

const WAKE_SELECT = loadSql(import.meta.url, './node-wake-select.sql');
const WAKE_READ = loadSql(import.meta.url, './node-wake-read.sql');
const WAKE_END = loadSql(import.meta.url, './node-wake-end.sql');

/** What a wait node's job says when its timeout ended it. */
export const WAIT_TIMED_OUT = 'wait timed out before a signal';

/** How many of each waiting kind one pass ended. */
export interface WakeReport {
  woken: Record<Exclude<NodeKind, 'call'>, number>;
  /** Whether a lane gave a full batch (more may be due). */
  full: boolean;
}

/** Map steps per pass, one transaction each (a slice is up to MAP_SLICE_ITEMS item nodes). */
const MAP_STEPS_PER_PASS = 4;

/**
 * Ends up to `limit` due sleep jobs and `limit` due wait jobs (timed out), in one transaction each
 * kind, then takes up to MAP_STEPS_PER_PASS steps of due map nodes (map-expand.ts), one
 * transaction each. Returns how many, and whether a batch was full. Without `map` options, map
 * nodes are left alone. A pass serves the group `partitions` (one shard on Vitess: the executor
 * wakes each group of its shard map in turn, docs/sharding.md): every statement of it is keyed by
 * the group or by the partitions of the rows it locked. Without it, every partition of the default
 * count (tests).
 */
export async function wakeDueNodes(
  pool: Pool,
  limit: number,
  map?: MapOptions,
  partitions: readonly number[] = allPartitions(DEFAULT_PARTITIONS),
): Promise<WakeReport> {
  const report: WakeReport = { woken: { sleep: 0, wait: 0, map: 0 }, full: false };
  for (const [kind, lane] of [
    ['sleep', SLEEP_LANE],
    ['wait', WAIT_LANE],
  ] as const) {
    const n = await withTransaction(pool, (conn) => wakeLane(conn, lane, limit, partitions));
    report.woken[kind] = n;
    if (n >= limit) report.full = true;
  }
  if (!map) return report;
  for (let i = 0; i < MAP_STEPS_PER_PASS; i++) {
    const step = await withTransaction(pool, (conn) => stepDueMap(conn, map, partitions));
    if (step === 'none') return report;
    if (step === 'ended') report.woken.map++;
  }
  report.full = true;
  return report;
}

async function wakeLane(
  conn: PoolConnection,
  lane: string,
  limit: number,
  partitions: readonly number[],
): Promise<number> {
  const [due] = await conn.query<RowDataPacket[]>(WAKE_SELECT, [lane, partitions, limit]);
  if (due.length === 0) return 0;
  // Keyed by the partitions of the rows locked (docs/sharding.md).
  const locked = [...new Set(due.map((r) => Number(r.partition)))];
  const [rows] = await conn.query<RowDataPacket[]>(WAKE_READ, [locked, due.map((r) => r.id)]);
  const ends: JobEnd[] = [];
  const byState = new Map<'succeeded' | 'dead', Buffer[]>();
  for (const row of rows) {
    const state =
      lane === WAIT_LANE && waitTimeoutOutcome(readJson(row.target) as Target) === 'fail'
        ? 'dead'
        : 'succeeded';
    byState.set(state, [...(byState.get(state) ?? []), row.id]);
    ends.push(waitingNodeEnd(row, state));
  }
  for (const [state, ids] of byState) {
    const error = state === 'dead' ? WAIT_TIMED_OUT : null;
    await conn.query<ResultSetHeader>(WAKE_END, [state, error, locked, ids]);
  }
  await finishJobs(conn, ends);
  return ends.length;
}

/** The finish path's record of a waiting node job's end (no call: no slot, no response body). */
export function waitingNodeEnd(
  row: RowDataPacket,
  state: 'succeeded' | 'dead',
  report: JobEnd['report'] = null,
): JobEnd {
  return {
    id: binToId(row.id),
    attempt: row.attempt,
    partition: Number(row.partition),
    state,
    followUps: null,
    workflowNode: {
      workflowId: binToId(row.workflow_id),
      nodeId: row.node_id,
      partition: Number(row.partition),
    },
    report,
  };
}
