import type { CassandraClient } from '@dsched/cassandra/client';
import { completeJob, heartbeatJob, type RedriveGroups } from '@dsched/mysql/jobs/control';
import type { Pool } from '@dsched/mysql/pool';
import { findTenantByKeyHash } from '@dsched/mysql/tenants';
import { cancelJobOrItsRun } from '@dsched/mysql/workflows';
import { endSpans, type JobTraces, type Logger } from '@dsched/runtime';
import type { Registry } from 'prom-client';
import {
  cassandraHistory,
  jobLookup,
  mysqlClock,
  mysqlDeadLetterQueue,
  mysqlLiveJobs,
} from './adapters/stores.ts';
import type { JobApiDeps } from './app.ts';
import { JobApiMetrics } from './metrics.ts';

/**
 * job-api's real adapters on a MySQL pool and a Cassandra client: what main.ts and the test app
 * both hand to buildApp, so a test runs the wiring production runs.
 */
export function jobApiDeps(args: {
  pool: Pool;
  cassandra: CassandraClient;
  logger: Logger;
  registry: Registry;
  heartbeatExtendSeconds: number;
  random?: () => number;
  /** The service's job traces: a completion or cancel is a span of the occurrence's trace. */
  traces?: JobTraces;
  /** The partition groups a redrive works by (a shard map's); one of every partition by default. */
  shards?: RedriveGroups;
}): Omit<JobApiDeps, 'ready' | 'isShuttingDown'> {
  const { pool, traces } = args;
  return {
    logger: args.logger,
    registry: args.registry,
    jobs: jobLookup(pool, args.cassandra),
    tenantByKey: (hash) => findTenantByKeyHash(pool, hash),
    live: mysqlLiveJobs(pool),
    history: cassandraHistory(args.cassandra),
    dlq: mysqlDeadLetterQueue(pool, args.shards),
    now: mysqlClock(pool),
    control: {
      cancel: (tenantId, id) => cancelJobOrItsRun(pool, tenantId, id, traces && endSpans(traces, 'cancel')),
      heartbeat: (a) => heartbeatJob(pool, a),
      complete: (a, decide) => completeJob(pool, a, decide, traces && endSpans(traces, 'complete')),
    },
    metrics: new JobApiMetrics(args.registry),
    random: args.random ?? Math.random,
    heartbeatExtendSeconds: args.heartbeatExtendSeconds,
  };
}
