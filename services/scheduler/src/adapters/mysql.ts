import type { TraceBatchBirth } from '@dsched/domain';
import {
  acquirePartitionLeases,
  countMembers,
  ensurePartitionLeases,
  forgetDeadMembers,
  heartbeatMember,
  leaveGroup,
  releasePartitionLeases,
  renewPartitionLeases,
} from '@dsched/mysql/leases';
import type { Pool } from '@dsched/mysql/pool';
import { materialiseDueBatch } from '@dsched/mysql/scheduler';
import type { DueMaterialiser, PartitionLeaseStore } from '../ports.ts';

export function mysqlDueMaterialiser(
  pool: Pool,
  options: { lookaheadMs: number; batchSize: number; births?: TraceBatchBirth },
): DueMaterialiser {
  return (scope, decide) =>
    materialiseDueBatch(pool, {
      scope,
      lookaheadMs: options.lookaheadMs,
      limit: options.batchSize,
      decide,
      ...(options.births ? { births: options.births } : {}),
    });
}

export function mysqlPartitionLeases(pool: Pool): PartitionLeaseStore {
  return {
    ensure: (partitions) => ensurePartitionLeases(pool, partitions),
    heartbeat: (holder, ttlMs) => heartbeatMember(pool, holder, ttlMs),
    members: () => countMembers(pool),
    renew: (holder, held, ttlMs) => renewPartitionLeases(pool, holder, held, ttlMs),
    acquire: (holder, want, partitions, ttlMs) =>
      acquirePartitionLeases(pool, holder, want, partitions, ttlMs),
    release: (holder, held) => releasePartitionLeases(pool, holder, held),
    leave: (holder) => leaveGroup(pool, holder),
    forgetDeadMembers: () => forgetDeadMembers(pool),
  };
}
