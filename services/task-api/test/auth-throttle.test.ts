import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, tenantClient } from './helpers.ts';
import { buildTestApp, TEST_ADMIN_TOKEN } from './test-app.ts';

let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, close } = await buildTestApp(import.meta.url, { authThrottle: { maxFailures: 3, windowS: 60 } }));
});
afterAll(async () => {
  await close();
});

const from = (remoteAddress: string, authorization: string, url = '/v1/tasks') =>
  app.inject({ method: 'GET', url, remoteAddress, headers: { authorization } });

describe('failed authentications', () => {
  it('from one address are answered 429 with Retry-After past the limit; other addresses go on', async () => {
    const a = await tenantClient(app);
    expect((await from('192.0.2.7', 'Bearer dsk_wrong')).statusCode).toBe(401);
    expect((await from('192.0.2.7', 'Bearer not-the-token', '/v1/admin/tenants/x')).statusCode).toBe(403);
    expect((await from('192.0.2.7', 'Bearer dsk_wrong')).statusCode).toBe(401);
    const held = await from('192.0.2.7', `Bearer ${a.apiKey}`);
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect(held.json()).toMatchObject({ error: { code: 'resource_exhausted' } });
    const admin = await from('192.0.2.7', `Bearer ${TEST_ADMIN_TOKEN}`, '/v1/admin/tenants/x');
    expect(admin.statusCode).toBe(429);
    // another address, and the probes of the held one, are served
    expect((await from('192.0.2.8', `Bearer ${a.apiKey}`)).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/healthz', remoteAddress: '192.0.2.7' })).statusCode,
    ).toBe(200);
    // successes never count: the tenant's own address keeps working
    for (let i = 0; i < 5; i++)
      expect((await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).statusCode).toBe(201);
  });
});
