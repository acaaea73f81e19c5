import type { ClaimRef, LeaseReport } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { clockedSql, loadSql } from '../../sql.ts';

const CLAIM_LEASE_RENEW = clockedSql(loadSql(import.meta.url, './claim-lease-renew.sql'));
const CLAIM_LEASE_CHECK = loadSql(import.meta.url, './claim-lease-check.sql');
const SLOTS_RENEW = clockedSql(loadSql(import.meta.url, './slots-renew.sql'));
const CLAIM_CANCEL_REQUESTED = loadSql(import.meta.url, './claim-cancel-requested.sql');

/** claim-lease-check.sql. */
interface HeldClaimRow extends RowDataPacket {
  id: Buffer;
  attempt: number;
  cancel_requested: number;
}

/**
 * Renews the leases of all `held` claims of `owner` in one statement (and their tenant slots in
 * one more). Only when fewer rows matched than were named does it read which claims were lost
 * and which are being cancelled. `at`: the instant the leases run from, instead of the database
 * clock (tests).
 */
export async function renewClaimLeases(
  pool: Pool,
  args: { owner: string; leaseSeconds: number; held: ClaimRef[]; at?: Date | null },
): Promise<LeaseReport> {
  const { held } = args;
  if (held.length === 0) return { lost: [], cancelRequested: [] };
  const pairs = held.map((c) => [idToBin(c.id), c.attempt]);
  const [res] = await pool.query<ResultSetHeader>(CLAIM_LEASE_RENEW(args.at), [
    args.leaseSeconds,
    pairs,
    args.owner,
  ]);
  const slots = held.filter((c) => c.tenantSlot != null && c.tenantId);
  if (slots.length > 0) {
    await pool.query(SLOTS_RENEW(args.at), [
      args.leaseSeconds,
      slots.map((c) => [idToBin(c.tenantId!), c.tenantSlot, idToBin(c.id), c.attempt]),
    ]);
  }
  if (res.affectedRows === held.length) return { lost: [], cancelRequested: [] };
  const [mine] = await pool.query<HeldClaimRow[]>(CLAIM_LEASE_CHECK, [pairs, args.owner]);
  const stillMine = new Map(
    mine.map((r) => [`${r.id.toString('hex')}:${r.attempt}`, Number(r.cancel_requested) === 1]),
  );
  const report: LeaseReport = { lost: [], cancelRequested: [] };
  for (const c of held) {
    const cancel = stillMine.get(`${c.id.replaceAll('-', '')}:${c.attempt}`);
    if (cancel === undefined) report.lost.push(c);
    else if (cancel) report.cancelRequested.push(c);
  }
  return report;
}

/** Of the `held` claims of `owner`, those whose cancel was requested: one statement. */
export async function cancelRequestedClaims(
  pool: Pool,
  args: { owner: string; held: ClaimRef[] },
): Promise<ClaimRef[]> {
  if (args.held.length === 0) return [];
  const [rows] = await pool.query<RowDataPacket[]>(CLAIM_CANCEL_REQUESTED, [
    args.held.map((c) => idToBin(c.id)),
    args.owner,
  ]);
  const requested = new Set(rows.map((r) => `${(r.id as Buffer).toString('hex')}:${r.attempt}`));
  return args.held.filter((c) => requested.has(`${c.id.replaceAll('-', '')}:${c.attempt}`));
}
