import { admitFlowControlled, type FlowCandidate, type FlowKeyState } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { clockedSql, loadSql, withCases, withRows } from '../../sql.ts';

const KEYS_EXISTING = loadSql(import.meta.url, './flow-keys-existing.sql');
const KEYS_LOCK = loadSql(import.meta.url, './flow-keys-lock.sql');
const RUNNING = clockedSql(loadSql(import.meta.url, './flow-running.sql'));
const HOLDS_EXPIRE = clockedSql(loadSql(import.meta.url, './flow-holds-expire.sql'));
const HOLDS_TAKE = clockedSql(loadSql(import.meta.url, './flow-holds-take.sql'));
const HOLDS_RENEW = clockedSql(loadSql(import.meta.url, './flow-holds-renew.sql'));
const HOLDS_RELEASE = loadSql(import.meta.url, './flow-holds-release.sql');
const KEYS_TAT = loadSql(import.meta.url, './flow-keys-tat.sql');
const KEYS_CREATE = loadSql(import.meta.url, './flow-keys-create.sql');
const DEFER_UNTIL = clockedSql(loadSql(import.meta.url, './claim-defer-until.sql'));

/** What the flow control step needs of a claim candidate (claim-read.sql's columns). */
export interface FlowRow {
  id: Buffer;
  hexId: string;
  tenant_id: Buffer;
  flow_key: string | null;
  flow_parallelism: number | null;
  flow_rate: string | number | null;
}

export interface FlowOutcome {
  /** Candidates admitted (hex ids); candidates without a key are not in it and not limited. */
  admitted: Set<string>;
  /** Deferred by flow control: hex id → its new run_at (written by deferFlowControlled). */
  deferredUntil: Map<string, Date>;
  /** Keys to create once the claim committed. */
  missing: [Buffer, string][];
}

interface KeyRow extends RowDataPacket {
  tenant_id: Buffer;
  flow_key: string;
  tat?: Date | null;
  n?: number;
  expired?: number;
}

const keyOf = (tenant: Buffer, key: string) => `${tenant.toString('hex')}/${key}`;

/**
 * Decides, under the keys' locks, which flow-controlled candidates the claim takes
 * (admitFlowControlled), and writes the keys' rate state: a statement for each kind of row,
 * whatever the number of keys. Runs in the claim's transaction on the global keyspace (`conn`),
 * where the keys and their holds are (docs/sharding.md); the admitted jobs' holds are written by
 * holdFlowKeys in the same transaction, the deferrals by deferFlowControlled in the shard's.
 */
export async function applyFlowControl(
  conn: PoolConnection,
  rows: readonly FlowRow[],
  dbNow: Date,
  retryMs: number,
  /** The claim's stand-in for the database clock (ClaimArgs.at), when a test passes one. */
  at?: Date | null,
): Promise<FlowOutcome> {
  const limited = rows.filter((r) => r.flow_key !== null);
  if (limited.length === 0) return { admitted: new Set(), deferredUntil: new Map(), missing: [] };
  const wanted = new Map<string, [Buffer, string]>();
  for (const r of limited) wanted.set(keyOf(r.tenant_id, r.flow_key!), [r.tenant_id, r.flow_key!]);
  const pairs = [...wanted.values()];
  const [existing] = await conn.query<KeyRow[]>(KEYS_EXISTING, [pairs]);
  const [locked] = await conn.query<KeyRow[]>(KEYS_LOCK, [pairs]);
  const states = new Map<string, FlowKeyState>();
  for (const k of locked) {
    states.set(keyOf(k.tenant_id, k.flow_key), {
      locked: true,
      running: 0,
      tatMs: k.tat ? k.tat.getTime() : null,
    });
  }
  if (locked.length > 0) {
    const keys = locked.map((k) => [k.tenant_id, k.flow_key]);
    const [running] = await conn.query<KeyRow[]>(RUNNING(at), [keys]);
    for (const r of running) states.get(keyOf(r.tenant_id, r.flow_key))!.running = Number(r.n);
    // Holds whose lease ran out count no more; deleted when seen, so a key's holds stay few.
    if (running.some((r) => Number(r.expired) > 0)) await conn.query(HOLDS_EXPIRE(at), [keys]);
  }
  const candidates: FlowCandidate[] = limited.map((r) => ({
    id: r.hexId,
    key: keyOf(r.tenant_id, r.flow_key!),
    parallelism: r.flow_parallelism === null ? null : Number(r.flow_parallelism),
    ratePerSecond: r.flow_rate === null ? null : Number(r.flow_rate),
  }));
  const decision = admitFlowControlled(candidates, states, dbNow.getTime(), retryMs);
  if (decision.tats.size > 0) {
    const tats = withRows(
      KEYS_TAT,
      ['tenant_id', 'flow_key', 'tat'],
      [...decision.tats].map(([key, at]) => [...wanted.get(key)!, new Date(at)]),
    );
    await conn.query(tats.sql, tats.params);
  }
  const present = new Set(existing.map((k) => keyOf(k.tenant_id, k.flow_key)));
  return {
    admitted: decision.admitted,
    deferredUntil: new Map([...decision.deferredUntil].map(([id, until]) => [id, new Date(until)])),
    missing: [...wanted].filter(([k]) => !present.has(k)).map(([, pair]) => pair),
  };
}

/**
 * The holds of the admitted jobs a claim takes (flow-holds-take.sql), each by the attempt the claim
 * opens: in the claim's transaction on the global keyspace, under the keys' locks.
 */
export async function holdFlowKeys(
  conn: PoolConnection,
  held: readonly (FlowRow & { attempt: number })[],
  leaseSeconds: number,
  at?: Date | null,
): Promise<void> {
  if (held.length === 0) return;
  const take = withRows(
    HOLDS_TAKE(at),
    ['job_id', 'attempt', 'tenant_id', 'flow_key'],
    held.map((r) => [r.id, Number(r.attempt) + 1, r.tenant_id, r.flow_key]),
  );
  // The lease's placeholder comes before the rows' in the text.
  await conn.query(take.sql, [leaseSeconds, ...take.params]);
}

/**
 * Moves the jobs flow control deferred each to its own time (claim-defer-until.sql), in the claim's
 * transaction on the shard, keyed by its group of partitions.
 */
export async function deferFlowControlled(
  conn: PoolConnection,
  rows: readonly FlowRow[],
  deferredUntil: ReadonlyMap<string, Date>,
  partitions: readonly number[],
  at?: Date | null,
): Promise<void> {
  if (deferredUntil.size === 0) return;
  const until = rows.flatMap((r) => {
    const when = deferredUntil.get(r.hexId);
    return when === undefined ? [] : [[r.id, when] as const];
  });
  const defer = withCases(DEFER_UNTIL(at), until, [until.map(([id]) => id), partitions]);
  await conn.query(defer.sql, defer.params);
}

/** An attempt that holds a flow control key: its job and the attempt its claim opened. */
export interface FlowHold {
  id: string;
  attempt: number;
}

/** Renews the holds of an executor's calls with their claim leases (flow-holds-renew.sql). */
export async function renewFlowHolds(
  pool: Pool,
  held: readonly FlowHold[],
  leaseSeconds: number,
  at?: Date | null,
): Promise<void> {
  if (held.length === 0) return;
  await pool.query(HOLDS_RENEW(at), [leaseSeconds, held.map((h) => [idToBin(h.id), h.attempt])]);
}

/**
 * Frees the holds of ended calls (flow-holds-release.sql), after their outcome committed: on a
 * connection of the pool, never in the shard's transaction. Each only while its attempt holds it.
 */
export async function releaseFlowHolds(pool: Pool, held: readonly FlowHold[]): Promise<void> {
  if (held.length === 0) return;
  await pool.query(HOLDS_RELEASE, [held.map((h) => [idToBin(h.id), h.attempt])]);
}

/** Creates the rows of keys a claim found missing; after its commit (flow-keys-create.sql). */
export async function createFlowKeys(pool: Pool, keys: [Buffer, string][]): Promise<void> {
  if (keys.length > 0) await pool.query(KEYS_CREATE, [keys]);
}
