import { idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';
import type { FollowUp, JobEnd } from '../finish/job-end.ts';

// A tenant slot is freed by the attempt that held it once that attempt has ended, whatever became
// of the job: the call it guarded is over (docs/tenant-concurrency.md). Fenced by its holder.

const SLOTS_RELEASE = loadSql(import.meta.url, './slots-release.sql');

/** Frees the slots the given attempts held; each only if that attempt still holds it. */
export async function releaseTenantSlots(
  conn: Parameters<FollowUp['run']>[0],
  held: readonly Pick<JobEnd, 'id' | 'attempt' | 'slot'>[],
): Promise<void> {
  const rows = held.flatMap((e) =>
    e.slot ? [[idToBin(e.slot.tenantId), e.slot.slot, idToBin(e.id), e.attempt]] : [],
  );
  if (rows.length > 0) await conn.query(SLOTS_RELEASE, [rows]);
}

export const tenantSlots: FollowUp = {
  name: 'tenant slots',
  phase: 'record',
  run: (conn, ends) => releaseTenantSlots(conn, ends),
};
