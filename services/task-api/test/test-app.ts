import { createLogger, createRegistry } from '@dsched/runtime';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { auditSources } from '../src/adapters/audit.ts';
import {
  mysqlClock,
  mysqlRateLimiter,
  mysqlTaskRepository,
  mysqlTaskRuns,
  mysqlTenantDirectory,
} from '../src/adapters/mysql.ts';
import { buildApp } from '../src/app.ts';
import { TaskApiMetrics } from '../src/metrics.ts';

export const TEST_ADMIN_TOKEN = 'admin-token-for-tests-123';

/** task-api's app on a test database and keyspace of the calling test file, for inject(). */
export async function buildTestApp(fileUrl: string, options: { historyRetentionDays?: number } = {}) {
  const [db, ks]: [TestDatabase, TestKeyspace] = await Promise.all([
    createTestDatabase(fileUrl),
    createTestKeyspace(fileUrl),
  ]);
  const registry: Registry = createRegistry('task-api');
  const app: FastifyInstance = buildApp({
    logger: createLogger('task-api', 'silent'),
    registry,
    ready: async () => undefined,
    tenants: mysqlTenantDirectory(db.pool, { rotationGraceS: 0 }),
    tasks: mysqlTaskRepository(db.pool, { partitions: 64 }),
    runs: mysqlTaskRuns(db.pool),
    rateLimit: mysqlRateLimiter(db.pool),
    now: mysqlClock(db.pool),
    adminToken: TEST_ADMIN_TOKEN,
    audit: auditSources(db.pool, ks.client, {
      historyRetentionDays: options.historyRetentionDays ?? 90,
      missing: new TaskApiMetrics(registry).auditMissing,
    }),
  });
  const close = async () => {
    await app.close();
    await db.close();
    await ks.close();
  };
  return { db, ks, app, registry, close };
}
