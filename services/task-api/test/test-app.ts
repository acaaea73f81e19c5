import { createLogger, createRegistry, type TrustProxy } from '@dsched/runtime';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import { testKeyring } from '@dsched/testkit/secrets';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { buildApp } from '../src/app.ts';
import { taskApiDeps } from '../src/deps.ts';

export const TEST_ADMIN_TOKEN = 'admin-token-for-tests-123';

/** task-api's app on a test database and keyspace of the calling test file, for inject(). */
export async function buildTestApp(
  fileUrl: string,
  options: {
    historyRetentionDays?: number;
    workflowMaxBodyBytes?: number;
    authThrottle?: { maxFailures: number; windowS: number };
    trustProxy?: TrustProxy;
    /** The instant to step time to instead of the database clock (null: the database clock). */
    at?: () => Date | null;
  } = {},
) {
  const [db, ks]: [TestDatabase, TestKeyspace] = await Promise.all([
    createTestDatabase(fileUrl),
    createTestKeyspace(fileUrl),
  ]);
  const registry: Registry = createRegistry('task-api');
  const app: FastifyInstance = buildApp({
    ...taskApiDeps({
      pool: db.pool,
      cassandra: ks.client,
      logger: createLogger('task-api', 'silent'),
      registry,
      adminToken: TEST_ADMIN_TOKEN,
      partitions: 64,
      rotationGraceS: 0,
      historyRetentionDays: options.historyRetentionDays ?? 90,
      workflowMaxBodyBytes: options.workflowMaxBodyBytes ?? 64 * 1024 * 1024,
      keyring: testKeyring(),
      ...(options.at ? { at: options.at } : {}),
    }),
    ready: async () => undefined,
    ...(options.authThrottle ? { authThrottle: options.authThrottle } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
  });
  const close = async () => {
    await app.close();
    await db.close();
    await ks.close();
  };
  return { db, ks, app, registry, close };
}
