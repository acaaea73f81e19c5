import { materialiseDueBatch } from '@dsched/mysql/jobs/materialise';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import type { DueMaterialiser } from '../ports.ts';

/** Reads `now` from MySQL for every batch (invariant 1), never from the host clock. */
export function mysqlDueMaterialiser(pool: Pool): DueMaterialiser {
  return async ({ partitions, lookaheadS, limit }) => {
    const now = await databaseNow(pool);
    return materialiseDueBatch(pool, {
      partitions,
      dueBefore: new Date(now.getTime() + lookaheadS * 1000),
      limit,
    });
  };
}
