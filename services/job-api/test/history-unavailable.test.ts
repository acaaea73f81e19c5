import type { CassandraClient } from '@dsched/cassandra/client';
import { newId } from '@dsched/domain';
import { createLogger, createRegistry } from '@dsched/runtime';
import { connectThroughRelay } from '@dsched/testkit/cassandra';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import type { TcpProxy } from '@dsched/testkit/tcp-proxy';
import { useTestStores } from '@dsched/testkit/test-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { jobApiDeps } from '../src/deps.ts';

// Cassandra unreachable (a TCP relay in front of the shared node, cut: every connection reset,
// the server itself untouched): job-api still answers what lives in MySQL, and answers what needs
// history with a 503 that says so and when to come back, not a 500.

const { db, ks } = useTestStores(import.meta.url);
let proxy: TcpProxy;
let client: CassandraClient;
let relay: Awaited<ReturnType<typeof connectThroughRelay>>;
let app: FastifyInstance;
let alice: { id: string; apiKey: string };

beforeAll(async () => {
  relay = await connectThroughRelay(ks.keyspace);
  ({ proxy, client } = relay);
  app = buildApp({
    ...jobApiDeps({
      pool: db.pool,
      cassandra: client,
      logger: createLogger('job-api', 'silent'),
      registry: createRegistry('job-api'),
      heartbeatExtendSeconds: 600,
    }),
    ready: async () => undefined,
  });
  alice = await createTenantWithKey(db.pool, 'alice');
});
afterAll(async () => {
  await app.close();
  await relay.close();
});

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${alice.apiKey}` } });

describe('history unreachable', () => {
  it('serves live jobs, and 503 with Retry-After for what needs history', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    const [live] = await insertJobs(db.pool, [
      { tenantId: alice.id, taskId: task.id, scheduledFor: new Date(), state: 'pending', attempt: 0 },
    ]);
    // Reachable: an unknown job is a plain 404, the lists answer.
    expect((await get(`/v1/jobs/${newId()}`)).statusCode).toBe(404);
    expect((await get('/v1/jobs')).statusCode).toBe(200);

    proxy.cut();
    const one = await get(`/v1/jobs/${live}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().id).toBe(live);

    for (const url of [`/v1/jobs/${newId()}`, '/v1/jobs', `/v1/tasks/${task.id}/runs`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('5');
      expect(res.json(), url).toEqual({
        error: {
          code: 'internal',
          message: expect.stringContaining('history (Cassandra) is unreachable'),
          details: [{ field: '(history)', issue: 'unavailable' }],
        },
      });
    }
  });
});
