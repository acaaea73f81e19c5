import { createHash, randomInt } from 'node:crypto';
import type { HeldLease } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';

// Scheduler partition leases and group membership, in the `leases` table (name, holder, token,
// expires_at). Expiry is decided by the database clock, never by the replica's. docs/leases.md.

const ENSURE = loadSql(import.meta.url, './ensure-leases.sql');
const FREE = loadSql(import.meta.url, './free-leases.sql');
const ACQUIRE = loadSql(import.meta.url, './acquire-leases.sql');
const RENEW = loadSql(import.meta.url, './renew-leases.sql');
const HELD = loadSql(import.meta.url, './held-leases.sql');
const RELEASE = loadSql(import.meta.url, './release-leases.sql');
const HEARTBEAT = loadSql(import.meta.url, './heartbeat-member.sql');
const COUNT_MEMBERS = loadSql(import.meta.url, './count-members.sql');
const FORGET_MEMBERS = loadSql(import.meta.url, './forget-members.sql');
const LEAVE = loadSql(import.meta.url, './leave-member.sql');

const PARTITION_PREFIX = 'scheduler.partition.';
const MEMBER_PREFIX = 'scheduler.member.';

export function partitionLeaseName(partition: number): string {
  return `${PARTITION_PREFIX}${String(partition).padStart(4, '0')}`;
}

function partitionOf(name: string): number {
  return Number(name.slice(PARTITION_PREFIX.length));
}

/** Holder ids may be long; the member row's name is a digest of it (the holder column keeps it). */
function memberName(holder: string): string {
  return `${MEMBER_PREFIX}${createHash('sha256').update(holder).digest('hex').slice(0, 32)}`;
}

function pairs(held: HeldLease[]): [string, string][] {
  return held.map((h) => [partitionLeaseName(h.partition), h.token]);
}

/** held-leases.sql. */
interface HeldLeaseRow extends RowDataPacket {
  name: string;
  /** BIGINT: a number or a string, by size and driver settings. */
  token: string | number;
}

/** free-leases.sql. */
interface LeaseNameRow extends RowDataPacket {
  name: string;
}

/** count-members.sql. */
interface MembersRow extends RowDataPacket {
  members: number;
}

function toHeld(rows: HeldLeaseRow[]): HeldLease[] {
  return rows
    .map((r) => ({ partition: partitionOf(String(r.name)), token: String(r.token) }))
    .sort((a, b) => a.partition - b.partition);
}

/** Creates the rows of partitions 0..count-1 that are missing (safe from several replicas). */
export async function ensurePartitionLeases(pool: Pool, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, p) => [
    partitionLeaseName(p),
    null,
    0,
    new Date('1970-01-02T00:00:00Z'),
  ]);
  await pool.query(ENSURE, [rows]);
}

/** Refreshes this replica's membership row. */
export async function heartbeatMember(pool: Pool, holder: string, ttlMs: number): Promise<void> {
  await pool.query(HEARTBEAT, [memberName(holder), holder, ttlMs]);
}

/** How many replicas are live (at least this one). */
export async function countMembers(pool: Pool): Promise<number> {
  const [[row]] = await pool.query<MembersRow[]>(COUNT_MEMBERS, [`${MEMBER_PREFIX}%`]);
  return Math.max(1, Number(row!.members));
}

export async function leaveGroup(pool: Pool, holder: string): Promise<void> {
  await pool.query(LEAVE, [memberName(holder), holder]);
}

export async function forgetDeadMembers(pool: Pool): Promise<void> {
  await pool.query(FORGET_MEMBERS, [`${MEMBER_PREFIX}%`]);
}

/** Renews what is still ours; returns the leases held after the renewal (lost ones are absent). */
export async function renewPartitionLeases(
  pool: Pool,
  holder: string,
  held: HeldLease[],
  ttlMs: number,
): Promise<HeldLease[]> {
  if (held.length === 0) return [];
  return withTransaction(pool, async (conn) => {
    await conn.query(RENEW, [ttlMs, pairs(held), holder]);
    const [rows] = await conn.query<HeldLeaseRow[]>(HELD, [
      held.map((h) => partitionLeaseName(h.partition)),
      holder,
    ]);
    const known = new Map(held.map((h) => [h.partition, h.token]));
    return toHeld(rows).filter((h) => known.get(h.partition) === h.token);
  });
}

/** Takes up to `want` free partition leases below `partitions`, chosen at random among the free. */
export async function acquirePartitionLeases(
  pool: Pool,
  holder: string,
  want: number,
  partitions: number,
  ttlMs: number,
): Promise<HeldLease[]> {
  if (want <= 0) return [];
  const [free] = await pool.query<LeaseNameRow[]>(FREE, [`${PARTITION_PREFIX}%`]);
  const names = free.map((r) => String(r.name)).filter((n) => partitionOf(n) < partitions);
  // Random picks keep replicas that start together from queueing on the same rows.
  for (let i = names.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  const chosen = names.slice(0, want);
  if (chosen.length === 0) return [];
  return withTransaction(pool, async (conn) => {
    const [res] = await conn.query<ResultSetHeader>(ACQUIRE, [holder, ttlMs, chosen]);
    if (res.affectedRows === 0) return [];
    const [rows] = await conn.query<HeldLeaseRow[]>(HELD, [chosen, holder]);
    return toHeld(rows);
  });
}

export async function releasePartitionLeases(pool: Pool, holder: string, held: HeldLease[]): Promise<void> {
  if (held.length === 0) return;
  await pool.query(RELEASE, [pairs(held), holder]);
}
