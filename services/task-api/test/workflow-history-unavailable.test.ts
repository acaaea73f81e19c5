import type { CassandraClient } from '@dsched/cassandra/client';
import { newId } from '@dsched/domain';
import { createLogger, createRegistry } from '@dsched/runtime';
import { connectThroughRelay } from '@dsched/testkit/cassandra';
import { testKeyring } from '@dsched/testkit/secrets';
import type { TcpProxy } from '@dsched/testkit/tcp-proxy';
import { useTestStores } from '@dsched/testkit/test-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { taskApiDeps } from '../src/deps.ts';
import { TEST_ADMIN_TOKEN } from './test-app.ts';

// Cassandra unreachable (a TCP relay in front of the shared node, cut): task-api still answers
// live workflows from MySQL, and answers what needs workflow history (a run not in MySQL) with a
// 503 that says so and when to come back (decision D20), not a 500 and not a 404.

const { db, ks } = useTestStores(import.meta.url);
let proxy: TcpProxy;
let client: CassandraClient;
let relay: Awaited<ReturnType<typeof connectThroughRelay>>;
let app: FastifyInstance;
let apiKey: string;

beforeAll(async () => {
  relay = await connectThroughRelay(ks.keyspace);
  ({ proxy, client } = relay);
  app = buildApp({
    ...taskApiDeps({
      pool: db.pool,
      cassandra: client,
      logger: createLogger('task-api', 'silent'),
      registry: createRegistry('task-api'),
      adminToken: TEST_ADMIN_TOKEN,
      partitions: 64,
      rotationGraceS: 0,
      historyRetentionDays: 90,
      workflowMaxBodyBytes: 1024 * 1024,
      keyring: testKeyring(),
    }),
    ready: async () => undefined,
  });
  const tenant = await app.inject({
    method: 'POST',
    url: '/v1/admin/tenants',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { name: 'alice' },
  });
  apiKey = tenant.json().apiKey;
}, 120_000);
afterAll(async () => {
  await app?.close();
  await relay?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(payload ? { payload } : {}),
  });

describe('workflow history unreachable', () => {
  it('serves live runs, and 503 with Retry-After for what needs history', async () => {
    const submitted = await call('POST', '/v1/workflows', {
      name: 'live',
      nodes: [{ id: 'a', target: { url: 'https://example.com/' } }],
    });
    expect(submitted.statusCode).toBe(201);
    const live = submitted.json().id as string;
    // Reachable: an unknown run is a plain 404.
    expect((await call('GET', `/v1/workflows/${newId()}`)).statusCode).toBe(404);

    proxy.cut();
    expect((await call('GET', `/v1/workflows/${live}`)).statusCode).toBe(200);
    expect((await call('GET', `/v1/workflows/${live}/nodes`)).json().nodes).toHaveLength(1);

    const unknown = newId();
    for (const [method, url] of [
      ['GET', `/v1/workflows/${unknown}`],
      ['GET', `/v1/workflows/${unknown}/nodes`],
      ['GET', `/v1/workflows/${unknown}/graph`],
      ['GET', `/v1/workflows/${unknown}/nodes/a/parents`],
      ['POST', `/v1/workflows/${unknown}/nodes/a/retry`],
    ] as const) {
      const res = await call(method, url);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('5');
      expect(res.json(), url).toEqual({
        error: {
          code: 'internal',
          message: expect.stringContaining('workflow history (Cassandra) is unreachable'),
          details: [{ field: '(history)', issue: 'unavailable' }],
        },
      });
    }
  });
});
