import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestStores } from '@dsched/testkit/test-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

const { db, ks } = useTestStores(import.meta.url);
let app: FastifyInstance;

beforeAll(async () => {
  app = buildTestApp(db, ks, { authThrottle: { maxFailures: 2, windowS: 30 } });
});
afterAll(async () => {
  await app?.close();
});

it('answers 429 with Retry-After to an address past its failed authentications', async () => {
  const tenant = await createTenantWithKey(db.pool, 'acme');
  const get = (remoteAddress: string, key: string) =>
    app.inject({ method: 'GET', url: '/v1/dlq', remoteAddress, headers: { authorization: `Bearer ${key}` } });
  expect((await get('198.51.100.1', 'dsk_guess1')).statusCode).toBe(401);
  expect((await get('198.51.100.1', 'dsk_guess2')).statusCode).toBe(401);
  const held = await get('198.51.100.1', tenant.apiKey);
  expect(held.statusCode).toBe(429);
  expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(30);
  expect((await get('198.51.100.2', tenant.apiKey)).statusCode).toBe(200);
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(doc.paths['/v1/jobs/{id}'].get.responses['429'].description).toMatch(/failed authentications/);
});
