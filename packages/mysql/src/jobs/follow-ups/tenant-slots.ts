import type { Pool } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';
import type { JobEnd } from '../finish/job-end.ts';

// A tenant slot is freed by the attempt that held it once that attempt has ended, whatever became
// of the job: the call it guarded is over (docs/tenant-concurrency.md). Fenced by its holder. Not
// a follow-up of the finish path: slots are in the global keyspace (docs/sharding.md), so the
// outcome frees them after its shard's transaction committed (outcomes.ts), on a connection of
// the pool.

const SLOTS_RELEASE = loadSql(import.meta.url, './slots-release.sql');

/** Frees the slots the given attempts held; each only if that attempt still holds it. */
export async function releaseTenantSlots(
  pool: Pool,
  held: readonly Pick<JobEnd, 'id' | 'attempt' | 'slot'>[],
): Promise<void> {
  const rows = held.flatMap((e) =>
    e.slot ? [[idToBin(e.slot.tenantId), e.slot.slot, idToBin(e.id), e.attempt]] : [],
  );
  if (rows.length > 0) await pool.query(SLOTS_RELEASE, [rows]);
}
