import { type CassandraClient, isCassandraUnreachable } from '@dsched/cassandra/client';
import { archivedTaskRuns, archivedTenantJobs } from '@dsched/cassandra/history-reads';
import { getArchivedJob } from '@dsched/cassandra/job-history';
import { storeUnavailable } from '@dsched/domain';
import { liveJobIds, liveTaskRuns, liveTenantJobs, taskBelongsTo } from '@dsched/mysql/jobs/job-lists';
import { getLiveJob } from '@dsched/mysql/jobs/job-records';
import { redriveJobs, redriveTask } from '@dsched/mysql/jobs/redrive';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import type { DatabaseClock, DeadLetterQueue, JobLookup, JobSource, LiveJobs } from '../ports.ts';

/**
 * A read of history that fails because Cassandra cannot be reached answers 503 (Retry-After), not
 * 500: live jobs (MySQL) are still served meanwhile, and the client is told to come back.
 */
async function fromHistory<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isCassandraUnreachable(err))
      throw storeUnavailable(
        'history',
        'job history (Cassandra) is unreachable right now; live jobs are still served, retry later',
        err,
      );
    throw err;
  }
}

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

export function mysqlDeadLetterQueue(pool: Pool): DeadLetterQueue {
  return {
    redrive: (tenantId, ids, taskId) => redriveJobs(pool, tenantId, ids, { taskId }),
    redriveTask: (tenantId, taskId, cap) => redriveTask(pool, tenantId, taskId, cap),
  };
}

export function mysqlClock(pool: Pool): DatabaseClock {
  return () => databaseNow(pool);
}
