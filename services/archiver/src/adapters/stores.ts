import type { CassandraClient } from '@dsched/cassandra/client';
import { writeJobHistory } from '@dsched/cassandra/job-history';
import {
  archiverLagSeconds,
  deleteArchivedJobs,
  readyBacklogUpTo,
  selectArchivableJobs,
} from '@dsched/mysql/jobs/archive';
import type { Pool } from '@dsched/mysql/pool';
import type { DeliveryBacklog, FinishedJobSource, HistoryWriter } from '../ports.ts';

export function mysqlFinishedJobSource(
  pool: Pool,
  options: { deadRetentionSeconds: number },
): FinishedJobSource {
  return {
    select: (limit) =>
      selectArchivableJobs(pool, { limit, deadRetentionSeconds: options.deadRetentionSeconds }),
    delete: (jobs) => deleteArchivedJobs(pool, jobs),
    lagSeconds: () => archiverLagSeconds(pool, options.deadRetentionSeconds),
  };
}

export function cassandraHistoryWriter(
  client: CassandraClient,
  options: { ttlSeconds: number; concurrency: number },
): HistoryWriter {
  return (records) => writeJobHistory(client, records, options);
}

export function mysqlDeliveryBacklog(pool: Pool): DeliveryBacklog {
  return (cap) => readyBacklogUpTo(pool, cap);
}
