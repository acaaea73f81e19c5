import { admitFlowControlled, type FlowCandidate, type FlowKeyState } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { clockedSql, loadSql, withCases, withRows } from '../../sql.ts';

const KEYS_EXISTING = loadSql(import.meta.url, './flow-keys-existing.sql');
const KEYS_LOCK = loadSql(import.meta.url, './flow-keys-lock.sql');
const RUNNING = loadSql(import.meta.url, './flow-running.sql');
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
  /** Deferred by flow control. */
  deferred: number;
  /** Keys to create once the claim committed. */
  missing: [Buffer, string][];
}

interface KeyRow extends RowDataPacket {
  tenant_id: Buffer;
  flow_key: string;
  tat?: Date | null;
  n?: number;
}

const keyOf = (tenant: Buffer, key: string) => `${tenant.toString('hex')}/${key}`;

/**
 * Decides, under the keys' locks, which flow-controlled candidates the claim takes
 * (admitFlowControlled), and writes the rest's deferral and the keys' rate state: a statement for
 * each kind of row, whatever the number of keys.
 */
export async function applyFlowControl(
  conn: PoolConnection,
  rows: readonly FlowRow[],
  dbNow: Date,
  retryMs: number,
  /** The claim's group of partitions (one shard's), which keys the deferral. */
  partitions: readonly number[],
  /** The claim's stand-in for the database clock (ClaimArgs.at), when a test passes one. */
  at?: Date | null,
): Promise<FlowOutcome> {
  const limited = rows.filter((r) => r.flow_key !== null);
  if (limited.length === 0) return { admitted: new Set(), deferred: 0, missing: [] };
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
    const [running] = await conn.query<KeyRow[]>(RUNNING, [locked.map((k) => [k.tenant_id, k.flow_key])]);
    for (const r of running) states.get(keyOf(r.tenant_id, r.flow_key))!.running = Number(r.n);
  }
  const candidates: FlowCandidate[] = limited.map((r) => ({
    id: r.hexId,
    key: keyOf(r.tenant_id, r.flow_key!),
    parallelism: r.flow_parallelism === null ? null : Number(r.flow_parallelism),
    ratePerSecond: r.flow_rate === null ? null : Number(r.flow_rate),
  }));
  const decision = admitFlowControlled(candidates, states, dbNow.getTime(), retryMs);
  if (decision.deferredUntil.size > 0) {
    const byId = new Map(limited.map((r) => [r.hexId, r.id]));
    const until = [...decision.deferredUntil].map(([id, at]) => [byId.get(id)!, new Date(at)] as const);
    const defer = withCases(DEFER_UNTIL(at), until, [until.map(([id]) => id), partitions]);
    await conn.query(defer.sql, defer.params);
  }
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
    deferred: decision.deferredUntil.size,
    missing: [...wanted].filter(([k]) => !present.has(k)).map(([, pair]) => pair),
  };
}

/** Creates the rows of keys a claim found missing; after its commit (flow-keys-create.sql). */
export async function createFlowKeys(pool: Pool, keys: [Buffer, string][]): Promise<void> {
  if (keys.length > 0) await pool.query(KEYS_CREATE, [keys]);
}
