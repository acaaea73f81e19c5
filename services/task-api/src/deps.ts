import type { CassandraClient } from '@dsched/cassandra/client';
import type { SecretsKeyring, TraceBirth } from '@dsched/domain';
import type { Pool } from '@dsched/mysql/pool';
import type { Logger } from '@dsched/runtime';
import type { Registry } from 'prom-client';
import { auditSources } from './adapters/audit.ts';
import {
  mysqlBulkOperations,
  mysqlClock,
  mysqlRateLimiter,
  mysqlTaskRepository,
  mysqlTaskRuns,
  mysqlTenantDirectory,
  mysqlWorkflowStore,
  type SteppedClock,
} from './adapters/mysql.ts';
import { cassandraWorkflowHistory } from './adapters/workflow-history.ts';
import type { TaskApiDeps } from './app.ts';
import { TaskApiMetrics } from './metrics.ts';

/**
 * task-api's real adapters on a MySQL pool and a Cassandra client: what main.ts and the test app
 * both hand to buildApp, so a test runs the wiring production runs.
 */
export function taskApiDeps(args: {
  pool: Pool;
  cassandra: CassandraClient;
  logger: Logger;
  registry: Registry;
  adminToken: string;
  partitions: number;
  rotationGraceS: number;
  historyRetentionDays: number;
  workflowMaxBodyBytes: number;
  /** Seals the signing secrets of the tenants it creates. */
  keyring: SecretsKeyring;
  /** The origin of signal URLs (TASK_API_PUBLIC_URL). */
  publicUrl?: string | undefined;
  /** The births of the jobs and runs it makes (trigger, backfill, workflows): their traces. */
  born?: TraceBirth;
  /** Tests only: the instant to step time to instead of the database clock (adapters/mysql.ts). */
  at?: SteppedClock;
}): Omit<TaskApiDeps, 'ready' | 'isShuttingDown'> {
  const { pool } = args;
  const metrics = new TaskApiMetrics(args.registry);
  return {
    logger: args.logger,
    registry: args.registry,
    tenants: mysqlTenantDirectory(pool, { rotationGraceS: args.rotationGraceS, keyring: args.keyring }),
    tasks: mysqlTaskRepository(pool, { partitions: args.partitions, ...(args.at ? { at: args.at } : {}) }),
    runs: mysqlTaskRuns(pool, args.born),
    rateLimit: mysqlRateLimiter(pool, args.at),
    now: mysqlClock(pool, args.at),
    adminToken: args.adminToken,
    workflows: mysqlWorkflowStore(pool, args.born),
    operations: mysqlBulkOperations(pool),
    history: cassandraWorkflowHistory(args.cassandra),
    workflowMaxBodyBytes: args.workflowMaxBodyBytes,
    partitions: args.partitions,
    signalKeys: args.keyring,
    publicUrl: args.publicUrl,
    audit: auditSources(pool, args.cassandra, {
      historyRetentionDays: args.historyRetentionDays,
      missing: metrics.auditMissing,
    }),
  };
}
