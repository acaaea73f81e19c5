import { createLogger, createRegistry } from '@dsched/runtime';
import type { TestKeyspace } from '@dsched/testkit/cassandra';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { jobApiDeps } from '../src/deps.ts';

/** job-api wired to a test database and keyspace with its real adapters, by main.ts's factory. */
export function buildTestApp(
  db: TestDatabase,
  ks: TestKeyspace,
  options: { random?: () => number; authThrottle?: { maxFailures: number; windowS: number } } = {},
): FastifyInstance {
  return buildApp({
    ...jobApiDeps({
      pool: db.pool,
      cassandra: ks.client,
      logger: createLogger('job-api', 'silent'),
      registry: createRegistry('job-api'),
      heartbeatExtendSeconds: 600,
      ...(options.random ? { random: options.random } : {}),
    }),
    ready: async () => undefined,
    ...(options.authThrottle ? { authThrottle: options.authThrottle } : {}),
  });
}
