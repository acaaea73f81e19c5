import { type ClaimRef, type LeaseReport, type PartitionGroup, partitionOfId } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { clockedSql, loadSql } from '../../sql.ts';
import { renewFlowHolds } from '../flow-control/index.ts';
import { ALL_PARTITIONS } from './claims.ts';

const CLAIM_LEASE_RENEW = clockedSql(loadSql(import.meta.url, './claim-lease-renew.sql'));
const CLAIM_LEASE_CHECK = loadSql(import.meta.url, './claim-lease-check.sql');
const SLOTS_RENEW = clockedSql(loadSql(import.meta.url, './slots-renew.sql'));
const CLAIM_CANCEL_REQUESTED = loadSql(import.meta.url, './claim-cancel-requested.sql');

/** One primary's one group of the default partitions (ClaimArgs.partitions). */
const ONE_GROUP: readonly PartitionGroup[] = [{ shard: '-', partitions: [...ALL_PARTITIONS] }];

/**
 * `held` by the group of partitions (one shard's) each claim's job is in: its partition as the
 * claim read it, or as its id says. Each group's statements are keyed by its partitions, so on
 * Vitess each goes to one shard; on one primary there is one group, so one statement as before.
 */
function byGroup(
  held: readonly ClaimRef[],
  groups: readonly PartitionGroup[],
): { partitions: number[]; claims: ClaimRef[] }[] {
  const total = groups.reduce((n, g) => n + g.partitions.length, 0);
  const groupOf = new Map<number, number[]>();
  for (const g of groups) for (const p of g.partitions) groupOf.set(p, g.partitions);
  const out = new Map<number[], ClaimRef[]>();
  for (const c of held) {
    const p = c.partition ?? partitionOfId(c.id, total);
    const g = groupOf.get(p);
    if (g === undefined) throw new RangeError(`claim of job ${c.id}: partition ${p} is in no group`);
    const list = out.get(g) ?? [];
    list.push(c);
    out.set(g, list);
  }
  return [...out].map(([partitions, claims]) => ({ partitions, claims }));
}

/** claim-lease-check.sql. */
interface HeldClaimRow extends RowDataPacket {
  id: Buffer;
  attempt: number;
  cancel_requested: number;
}

/**
 * Renews the leases of all `held` claims of `owner` in one statement (and their tenant slots and
 * flow holds in one more each, on the global keyspace, when they hold any). Only when fewer rows matched than were named does it read which claims were lost
 * and which are being cancelled. `at`: the instant the leases run from, instead of the database
 * clock (tests).
 */
export async function renewClaimLeases(
  pool: Pool,
  args: {
    owner: string;
    leaseSeconds: number;
    held: ClaimRef[];
    /** The shard map's groups (one per shard); default: one group of ALL_PARTITIONS. */
    groups?: readonly PartitionGroup[];
    at?: Date | null;
  },
): Promise<LeaseReport> {
  const { held } = args;
  const report: LeaseReport = { lost: [], cancelRequested: [] };
  if (held.length === 0) return report;
  const slots = held.filter((c) => c.tenantSlot != null && c.tenantId);
  if (slots.length > 0) {
    await pool.query(SLOTS_RENEW(args.at), [
      args.leaseSeconds,
      slots.map((c) => [idToBin(c.tenantId!), c.tenantSlot, idToBin(c.id), c.attempt]),
    ]);
  }
  await renewFlowHolds(
    pool,
    held.filter((c) => c.flowHold),
    args.leaseSeconds,
    args.at,
  );
  // A statement per group (per shard), each alone: one primary has one.
  for (const { partitions, claims } of byGroup(held, args.groups ?? ONE_GROUP)) {
    const pairs = claims.map((c) => [idToBin(c.id), c.attempt]);
    const [res] = await pool.query<ResultSetHeader>(CLAIM_LEASE_RENEW(args.at), [
      args.leaseSeconds,
      pairs,
      args.owner,
      partitions,
    ]);
    if (res.affectedRows === claims.length) continue;
    const [mine] = await pool.query<HeldClaimRow[]>(CLAIM_LEASE_CHECK, [pairs, args.owner, partitions]);
    const stillMine = new Map(
      mine.map((r) => [`${r.id.toString('hex')}:${r.attempt}`, Number(r.cancel_requested) === 1]),
    );
    for (const c of claims) {
      const cancel = stillMine.get(`${c.id.replaceAll('-', '')}:${c.attempt}`);
      if (cancel === undefined) report.lost.push(c);
      else if (cancel) report.cancelRequested.push(c);
    }
  }
  return report;
}

/** Of the `held` claims of `owner`, those whose cancel was requested: one statement. */
export async function cancelRequestedClaims(
  pool: Pool,
  args: { owner: string; held: ClaimRef[]; groups?: readonly PartitionGroup[] },
): Promise<ClaimRef[]> {
  const out: ClaimRef[] = [];
  for (const { partitions, claims } of byGroup(args.held, args.groups ?? ONE_GROUP)) {
    const [rows] = await pool.query<RowDataPacket[]>(CLAIM_CANCEL_REQUESTED, [
      claims.map((c) => idToBin(c.id)),
      args.owner,
      partitions,
    ]);
    const requested = new Set(rows.map((r) => `${(r.id as Buffer).toString('hex')}:${r.attempt}`));
    out.push(...claims.filter((c) => requested.has(`${c.id.replaceAll('-', '')}:${c.attempt}`)));
  }
  return out;
}
