import type { CassandraClient } from '@dsched/cassandra/client';
import { archivedTaskRuns, archivedTenantJobs } from '@dsched/cassandra/history-reads';
import { getArchivedJob } from '@dsched/cassandra/job-history';
import { liveJobIds, liveTaskRuns, liveTenantJobs, taskBelongsTo } from '@dsched/mysql/jobs/job-lists';
import { getLiveJob } from '@dsched/mysql/jobs/job-records';
import { redriveJobs, redriveTask } from '@dsched/mysql/jobs/redrive';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import type { DatabaseClock, DeadLetterQueue, JobLookup, JobSource, LiveJobs } from '../ports.ts';

export function jobLookup(pool: Pool, cassandra: CassandraClient): JobLookup {
  return {
    live: (tenantId, id) => getLiveJob(pool, tenantId, id),
    archived: (tenantId, id) => getArchivedJob(cassandra, tenantId, id),
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
    taskRuns: (q) => archivedTaskRuns(client, q),
    tenantJobs: (q) => archivedTenantJobs(client, q),
  };
}

export function mysqlDeadLetterQueue(pool: Pool): DeadLetterQueue {
  return {
    redrive: (tenantId, ids, taskId) => redriveJobs(pool, tenantId, ids, { taskId }),
    redriveTask: (tenantId, taskId, cap) => redriveTask(pool, tenantId, taskId, cap),
  };
}

export function mysqlClock(pool: Pool): DatabaseClock {
  return () => databaseNow(pool);
}
