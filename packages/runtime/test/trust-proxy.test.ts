import { describe, expect, it } from 'vitest';
import { createHttpServer, createLogger, type TrustProxy } from '../src/index.ts';

async function clientAddress(trustProxy: TrustProxy, remoteAddress: string, forwardedFor: string) {
  const app = createHttpServer(createLogger('test', 'silent'), { trustProxy });
  app.get('/ip', async (request) => ({ ip: request.ip }));
  try {
    const res = await app.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return res.json<{ ip: string }>().ip;
  } finally {
    await app.close();
  }
}

describe('the client address behind proxies', () => {
  it('is the peer when nobody is trusted, whatever X-Forwarded-For says', async () => {
    expect(await clientAddress(false, '10.0.0.5', '198.51.100.1')).toBe('10.0.0.5');
  });

  it('is the address the trusted hops name, and no further', async () => {
    expect(await clientAddress(1, '10.0.0.5', '203.0.113.7, 198.51.100.1')).toBe('198.51.100.1');
    expect(await clientAddress(2, '10.0.0.5', '203.0.113.7, 198.51.100.1')).toBe('203.0.113.7');
  });

  it('follows X-Forwarded-For only through the listed proxies', async () => {
    const trusted = ['10.0.0.0/8'];
    expect(await clientAddress(trusted, '10.0.0.5', '10.1.1.1, 198.51.100.1')).toBe('198.51.100.1');
    expect(await clientAddress(trusted, '192.0.2.9', '198.51.100.1')).toBe('192.0.2.9');
  });
});
