import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createSinkServer, Sink } from '../src/sink/server.ts';

// The sink's semantics, against real HTTP on loopback: the effect once per Idempotency-Key, the
// failing share, a caller that hangs up, in-flight per tenant, and 202 completion (through a stub
// of job-api's complete endpoint, named as one: the real endpoint belongs to job-api's tests).

const servers: Server[] = [];
const sinks: Sink[] = [];
afterEach(async () => {
  for (const s of sinks.splice(0)) s.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function startSink(): Promise<{ sink: Sink; url: string }> {
  const sink = new Sink();
  sinks.push(sink);
  return { sink, url: await listen(createSinkServer(sink)) };
}

const call = (url: string, key: string, attempt = 1, signal?: AbortSignal) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'idempotency-key': key,
      'dsched-attempt': String(attempt),
      'dsched-scheduled-for': '2030-01-01T09:00:00.000Z',
      'dsched-task-id': 't1',
    },
    body: '{}',
    ...(signal ? { signal } : {}),
  });

it('applies the effect once per Idempotency-Key and records every call', async () => {
  const { sink, url } = await startSink();
  expect((await call(`${url}/s/3/fast`, 'k1')).status).toBe(200);
  expect((await call(`${url}/s/3/fast`, 'k1', 2)).status).toBe(200);
  expect((await call(`${url}/s/3/fast`, 'k2')).status).toBe(200);
  const r = sink.records();
  expect(r.key).toEqual(['k1', 'k1', 'k2']);
  expect(r.effect).toEqual([1, 0, 1]);
  expect(r.attempt).toEqual([1, 2, 1]);
  expect(r.tenant).toEqual([3, 3, 3]);
  expect(r.scheduledFor[0]).toBe('2030-01-01T09:00:00.000Z');
  expect(sink.stats()).toMatchObject({ calls: 3, answered: 3, effects: 2, inFlight: 0 });
});

it('fails its share without the effect, and a caller that hangs up gets none either', async () => {
  const { sink, url } = await startSink();
  sink.configure({
    profiles: { down: { failShare: 1, failStatus: 503 }, slow: { delayMs: [300, 300] } },
    tenantKeys: {},
    jobApiUrls: [],
  });
  expect((await call(`${url}/s/0/down`, 'k1')).status).toBe(503);
  await expect(call(`${url}/s/1/slow`, 'k2', 1, AbortSignal.timeout(50))).rejects.toThrow();
  await new Promise((r) => setTimeout(r, 400));
  const r = sink.records();
  expect(r.effect).toEqual([0, 0]);
  expect(r.status).toEqual([503, 0]);
  expect(sink.stats()).toMatchObject({ effects: 0, inFlight: 0 });
});

it("records the path after the profile, and fails a profile's first attempts", async () => {
  const { sink, url } = await startSink();
  sink.configure({ profiles: { flaky: { failAttempts: 2 } }, tenantKeys: {}, jobApiUrls: [] });
  const statuses: number[] = [];
  for (const attempt of [1, 2, 3]) statuses.push((await call(`${url}/s/0/flaky/n17`, 'k1', attempt)).status);
  expect((await call(`${url}/s/0/fast`, 'k2')).status).toBe(200);
  expect(statuses).toEqual([503, 503, 200]);
  const r = sink.records();
  expect(r.profile).toEqual(['flaky', 'flaky', 'flaky', 'fast']);
  expect(r.tail).toEqual(['n17', 'n17', 'n17', '']);
  expect(r.effect).toEqual([0, 0, 1, 1]);
});

it('counts the most calls in flight per tenant', async () => {
  const { sink, url } = await startSink();
  sink.configure({ profiles: { slow: { delayMs: [100, 100] } }, tenantKeys: {}, jobApiUrls: [] });
  await Promise.all([1, 2, 3].map((i) => call(`${url}/s/7/slow`, `k${i}`)));
  await call(`${url}/s/8/slow`, 'k4');
  expect(sink.stats().maxInFlightByTenant).toEqual({ 7: 3, 8: 1 });
});

it('answers 202 and completes later through job-api with the newest attempt (stub job-api)', async () => {
  const completions: { path: string; auth: string; body: { attempt: number; outcome: string } }[] = [];
  const stubJobApi = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        completions.push({
          path: req.url ?? '',
          auth: req.headers.authorization ?? '',
          body: JSON.parse(body),
        });
        res.writeHead(200).end('{}');
      });
    }),
  );
  const { sink, url } = await startSink();
  sink.configure({
    profiles: { async: { async: { completeAfterMs: 200 } } },
    tenantKeys: { 2: 'dsk_key' },
    jobApiUrls: [stubJobApi],
  });
  expect((await call(`${url}/s/2/async`, 'job-1', 1)).status).toBe(202);
  expect((await call(`${url}/s/2/async`, 'job-1', 2)).status).toBe(202);
  await new Promise((r) => setTimeout(r, 500));
  expect(completions).toEqual([
    { path: '/v1/jobs/job-1/complete', auth: 'Bearer dsk_key', body: { attempt: 2, outcome: 'succeeded' } },
  ]);
  expect((await call(`${url}/s/2/async`, 'job-1', 3)).status).toBe(200);
  expect(sink.records().effect).toEqual([1, 0, 0]);
});
