import { cancelJob, completeJob, heartbeatJob } from '@dsched/mysql/jobs/job-control';
import { findTenantByKeyHash } from '@dsched/mysql/tenants/tenant-store';
import { createLogger, createRegistry } from '@dsched/runtime';
import type { TestKeyspace } from '@dsched/testkit/cassandra';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import {
  cassandraHistory,
  jobLookup,
  mysqlClock,
  mysqlDeadLetterQueue,
  mysqlLiveJobs,
} from '../src/adapters/stores.ts';
import { buildApp } from '../src/app.ts';
import { JobApiMetrics } from '../src/metrics.ts';

/** job-api wired to a test database and keyspace with its real adapters, as main.ts wires it. */
export function buildTestApp(
  db: TestDatabase,
  ks: TestKeyspace,
  options: { random?: () => number } = {},
): FastifyInstance {
  const registry = createRegistry('job-api');
  return buildApp({
    logger: createLogger('job-api', 'silent'),
    registry,
    ready: async () => undefined,
    jobs: jobLookup(db.pool, ks.client),
    tenantByKey: (hash) => findTenantByKeyHash(db.pool, hash),
    live: mysqlLiveJobs(db.pool),
    history: cassandraHistory(ks.client),
    dlq: mysqlDeadLetterQueue(db.pool),
    now: mysqlClock(db.pool),
    control: {
      cancel: (tenantId, id) => cancelJob(db.pool, tenantId, id),
      heartbeat: (args) => heartbeatJob(db.pool, args),
      complete: (args, decide) => completeJob(db.pool, args, decide),
    },
    metrics: new JobApiMetrics(registry),
    random: options.random ?? Math.random,
    heartbeatExtendSeconds: 600,
  });
}
