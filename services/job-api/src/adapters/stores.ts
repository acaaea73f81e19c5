import { type CassandraClient, readHistory } from '@dsched/cassandra/client';
import { archivedTaskRuns, archivedTenantJobs } from '@dsched/cassandra/history-reads';
import { getArchivedJob } from '@dsched/cassandra/job-history';
import { getLiveJob } from '@dsched/mysql/jobs';
import { type RedriveGroups, redriveJobs, redriveTask } from '@dsched/mysql/jobs/control';
import { liveJobIds, liveTaskRuns, liveTenantJobs, taskBelongsTo } from '@dsched/mysql/jobs/lists';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import type { DatabaseClock, DeadLetterQueue, JobLookup, JobSource, LiveJobs } from '../ports.ts';

/** Live jobs (MySQL) are still served while history cannot be reached: its reads answer 503. */
const fromHistory = <T>(read: () => Promise<T>): Promise<T> =>
  readHistory(
    read,
    'job history (Cassandra) is unreachable right now; live jobs are still served, retry later',
  );

export function jobLookup(pool: Pool, cassandra: CassandraClient): JobLookup {
  return {
    live: (tenantId, id) => getLiveJob(pool, tenantId, id),
    archived: (tenantId, id) => fromHistory(() => getArchivedJob(cassandra, tenantId, id)),
  };
}

export function mysqlLiveJobs(pool: Pool): LiveJobs {
  return {
    taskRuns: (q) => liveTaskRuns(pool, q),
    tenantJobs: (q) => liveTenantJobs(pool, q),
    liveIds: (ids) => liveJobIds(pool, ids),
    taskBelongsTo: (tenantId, taskId) => taskBelongsTo(pool, tenantId, taskId),
  };
}

export function cassandraHistory(client: CassandraClient): JobSource {
  return {
    taskRuns: (q) => fromHistory(() => archivedTaskRuns(client, q)),
    tenantJobs: (q) => fromHistory(() => archivedTenantJobs(client, q)),
  };
}

/** The DLQ's redrive, each batch one group's of partitions (one shard on Vitess, docs/sharding.md). */
export function mysqlDeadLetterQueue(pool: Pool, shards?: RedriveGroups): DeadLetterQueue {
  return {
    redrive: (tenantId, ids, taskId) =>
      redriveJobs(pool, tenantId, ids, { taskId, ...(shards ? { shards } : {}) }),
    redriveTask: (tenantId, taskId, cap) => redriveTask(pool, tenantId, taskId, cap, shards),
  };
}

export function mysqlClock(pool: Pool): DatabaseClock {
  return () => databaseNow(pool);
}
