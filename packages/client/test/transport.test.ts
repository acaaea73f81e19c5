import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDschedClient, DschedApiError, DschedNetworkError } from '../src/index.ts';

// Retries against a real loopback server that fails the first calls: idempotent calls are
// retried through 503, a create is not (it might have been done), a trigger with an idempotency
// key is; a 429 is retried on any method.

let server: Server;
let base: string;
const seen: { method: string; url: string; auth: string | undefined }[] = [];
/** Statuses to answer, in order, before answering 200. */
let script: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization });
    req.resume();
    const status = script.shift() ?? 200;
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(status === 429 ? { 'retry-after': '0' } : {}),
    });
    res.end(
      JSON.stringify(
        status === 200
          ? { id: 'x', jobId: 'j', tasks: [] }
          : {
              error: {
                code: status === 429 ? 'resource_exhausted' : 'internal',
                message: 'try later',
                details: [],
              },
            },
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function client(retries = 3) {
  seen.length = 0;
  return createDschedClient({
    taskApi: base,
    jobApi: base,
    apiKey: 'dsk_k',
    adminToken: 'adm',
    retries,
    baseDelayMs: 1,
  });
}

describe('retries', () => {
  it('an idempotent GET is retried through 503s, with the key on every attempt', async () => {
    const c = client();
    script = [503, 502];
    await c.getTask('t');
    expect(seen.map((s) => [s.method, s.auth])).toEqual([
      ['GET', 'Bearer dsk_k'],
      ['GET', 'Bearer dsk_k'],
      ['GET', 'Bearer dsk_k'],
    ]);
  });

  it('a create is not retried on 503: it may have been done', async () => {
    const c = client();
    script = [503];
    const err = await c.createTask({} as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DschedApiError);
    expect((err as DschedApiError).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('a trigger with an idempotency key is retried; without one it is not', async () => {
    const c = client();
    script = [503];
    await c.triggerTask('t', { idempotencyKey: 'k1' });
    expect(seen).toHaveLength(2);
    seen.length = 0;
    script = [503];
    await expect(c.triggerTask('t')).rejects.toBeInstanceOf(DschedApiError);
    expect(seen).toHaveLength(1);
  });

  it('a 429 is retried on any method, and given up after the retries allowed', async () => {
    const c = client(2);
    script = [429, 429];
    await c.createTask({} as never);
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST']);
    seen.length = 0;
    script = [429, 429, 429];
    const err = await c.listTasks().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'resource_exhausted', retryAfterMs: 0 });
    expect(seen).toHaveLength(3);
  });

  it('operator routes carry the admin token; a dead port is a network error after retries', async () => {
    const c = client();
    await c.getTenant('x');
    expect(seen[0]!.auth).toBe('Bearer adm');
    const down = createDschedClient({
      taskApi: 'http://127.0.0.1:1',
      apiKey: 'k',
      retries: 1,
      baseDelayMs: 1,
    });
    await expect(down.getTask('t')).rejects.toBeInstanceOf(DschedNetworkError);
  });
});
