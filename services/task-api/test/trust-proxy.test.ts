import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

// Behind the chart's Ingress every request comes from the ingress controller: without
// TRUST_PROXY one client's failed keys would throttle every tenant behind it.
describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let proxied: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    proxied = await buildTestApp(import.meta.url, {
      authThrottle: { maxFailures: 2, windowS: 60 },
      trustProxy: ['192.0.2.1'],
    });
  });
  afterAll(async () => {
    await proxied.close();
  });

  const via = (remoteAddress: string, client: string) =>
    proxied.app.inject({
      method: 'GET',
      url: '/v1/tasks',
      remoteAddress,
      headers: { authorization: 'Bearer dsk_wrong', 'x-forwarded-for': client },
    });

  it('counts the client the proxy names, so one client behind the ingress does not hold off the rest', async () => {
    for (let i = 0; i < 2; i++) expect((await via('192.0.2.1', '198.51.100.9')).statusCode).toBe(401);
    expect((await via('192.0.2.1', '198.51.100.9')).statusCode).toBe(429);
    // another client through the same proxy is still heard
    expect((await via('192.0.2.1', '198.51.100.10')).statusCode).toBe(401);
  });

  it('ignores X-Forwarded-For from a peer it does not trust', async () => {
    for (let i = 0; i < 2; i++) expect((await via('192.0.2.50', `203.0.113.${i}`)).statusCode).toBe(401);
    // a fresh forwarded address each time does not escape the count of the real peer
    expect((await via('192.0.2.50', '203.0.113.99')).statusCode).toBe(429);
  });
});
