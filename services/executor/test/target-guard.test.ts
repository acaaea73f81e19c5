import { createServer } from 'node:http';
import { type AddressInfo, isIP, type Socket } from 'node:net';
import { type ClaimedJob, verifyWebhookSignature } from '@dsched/domain';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { TEST_SECRETS_KEY } from '@dsched/testkit/secrets';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSocket, type Resolver, type SocketOpener } from '../src/adapters/guarded-connector.ts';
import { httpTargetCaller } from '../src/adapters/http-caller.ts';
import { embeddedIpv4, forbiddenReason, parseAllowList } from '../src/adapters/target-policy.ts';
import { loadExecutorConfig } from '../src/config.ts';
import { CallAbortHook } from '../src/core/call-abort.ts';

// The SSRF guard and the outgoing call. The resolver is injected (names resolve to whatever the
// test says) and so is the socket opener: it connects only to loopback and records any other
// address it is handed as a failure, so a broken guard fails the test without a socket ever
// being opened to a non-loopback address.

let target: ScriptedTarget;
const dialled: string[] = [];
const forbiddenDials: string[] = [];

const loopbackOnly: SocketOpener = (t, timeoutMs) => {
  dialled.push(t.address);
  if (!t.address.startsWith('127.') && t.address !== '::1') {
    forbiddenDials.push(t.address);
    return Promise.reject(new Error(`test opener refused to dial ${t.address}`));
  }
  return openSocket(t, timeoutMs) as Promise<Socket>;
};

const names: Record<string, string[]> = {
  'internal.example': ['10.1.2.3'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['10.0.0.7', '127.0.0.1'],
  'target.test': ['127.0.0.1'],
};
const resolver: Resolver = async (hostname) => {
  const addresses = names[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: isIP(address) }));
};

function job(url: string, overrides: Partial<ClaimedJob> = {}): ClaimedJob {
  return {
    id: '01900000-0000-7000-8000-000000000001',
    tenantId: '01900000-0000-7000-8000-0000000000aa',
    taskId: '01900000-0000-7000-8000-0000000000bb',
    kind: 'scheduled',
    workflowId: null,
    nodeId: null,
    scheduledFor: new Date('2026-01-01T09:00:00.000Z'),
    priority: 'normal',
    lane: 'default',
    attempt: 2,
    maxAttempts: 5,
    target: { url, method: 'POST', headers: { 'x-app': 'a' }, body: { n: 1 }, timeoutMs: 2000 },
    retry: { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] },
    signingSecret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=',
    tenantSlot: null,
    claimedAt: new Date(),
    dueInMs: 0,
    owner: 'exec-test',
    followUps: null,
    ...overrides,
  };
}

const callers: { close(): Promise<void> }[] = [];
function caller(allow: string[], options: { maxResponseBytes?: number; maxRequestBytes?: number } = {}) {
  const c = httpTargetCaller({
    allow: parseAllowList(allow),
    maxRequestBytes: options.maxRequestBytes ?? 256 * 1024,
    maxResponseBytes: options.maxResponseBytes ?? 1024,
    connectTimeoutMs: 2000,
    connectionsPerOrigin: 4,
    resolve: resolver,
    open: loopbackOnly,
  });
  callers.push(c);
  return c;
}

beforeAll(async () => {
  target = await startScriptedTarget();
});
afterAll(async () => {
  await Promise.all(callers.map((c) => c.close()));
  await target.close();
});
afterEach(() => {
  expect(forbiddenDials).toEqual([]);
});

const port = () => new URL(target.url).port;
/** A call's abort hook that never fires (one per call: a hook has one listener). */
const never = () => new CallAbortHook();

describe('the SSRF guard', () => {
  it('refuses 127.0.0.1 without an allow-list, before connecting', async () => {
    const result = await caller([])(job(`${target.url}/x`), never());
    expect(result).toMatchObject({ kind: 'error', errorClass: 'refused' });
    expect(result.kind === 'error' && result.message).toContain('loopback');
    expect(dialled).not.toContain('127.0.0.1');
  });

  it('refuses the metadata address, by IP literal and by name', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', `http://metadata.example:${port()}/`]) {
      const result = await caller(['127.0.0.0/8'])(job(url), never());
      expect(result).toMatchObject({ kind: 'error', errorClass: 'refused' });
      expect(result.kind === 'error' && result.message).toContain('metadata');
    }
  });

  it('refuses a name that resolves to a private address, whatever the name looks like', async () => {
    const result = await caller(['127.0.0.0/8'])(job(`http://internal.example:${port()}/`), never());
    expect(result).toMatchObject({ kind: 'error', errorClass: 'refused' });
    expect(result.kind === 'error' && result.message).toContain('10.1.2.3');
  });

  it('connects only to the allowed addresses of a name that resolves to several', async () => {
    const result = await caller(['127.0.0.0/8'])(job(`http://mixed.example:${port()}/m`), never());
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(dialled).not.toContain('10.0.0.7');
  });

  it('lets an allow-listed host name through whatever it resolves to', async () => {
    const result = await caller(['target.test'])(job(`http://target.test:${port()}/h`), never());
    expect(result).toMatchObject({ kind: 'response', status: 200 });
  });

  it('classifies wrapped and special addresses', () => {
    expect(forbiddenReason('::ffff:127.0.0.1')).toContain('loopback');
    expect(forbiddenReason('::ffff:7f00:1')).toContain('loopback');
    expect(forbiddenReason('64:ff9b::a00:1')).toContain('private');
    expect(forbiddenReason('2002:a9fe:a9fe::1')).toContain('metadata');
    expect(forbiddenReason('fd00:ec2::254')).toContain('metadata');
    expect(forbiddenReason('fe80::1%eth0')).toContain('link-local');
    expect(forbiddenReason('100.100.100.200')).toContain('metadata');
    expect(forbiddenReason('0.0.0.0')).toContain('unspecified');
    expect(forbiddenReason('93.184.216.34')).toBeNull();
    expect(forbiddenReason('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('::1')).toBeNull();
  });

  it('stops the executor at start on a bad allow-list entry, naming the variable', () => {
    expect(() =>
      loadExecutorConfig({
        DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/d',
        EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8,10.0.0.0/40',
      }),
    ).toThrow(/EXECUTOR_ALLOWED_TARGETS: "10.0.0.0\/40" has a bad prefix length/);
    expect(() =>
      loadExecutorConfig({
        DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/d',
        EXECUTOR_ALLOWED_TARGETS: 'http://x/',
      }),
    ).toThrow(/EXECUTOR_ALLOWED_TARGETS/);
  });

  it('stops the executor at start on a bad output cap or task-api URL, naming the variable', () => {
    const base = { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/d', DSCHED_SECRETS_KEY: TEST_SECRETS_KEY };
    expect(loadExecutorConfig(base).EXECUTOR_MAX_OUTPUT_BYTES).toBe(256 * 1024);
    expect(() =>
      loadExecutorConfig({ ...base, EXECUTOR_MAX_OUTPUT_BYTES: String(64 * 1024 * 1024) }),
    ).toThrow(/EXECUTOR_MAX_OUTPUT_BYTES/);
    expect(() => loadExecutorConfig({ ...base, EXECUTOR_MAX_OUTPUT_BYTES: 'lots' })).toThrow(
      /EXECUTOR_MAX_OUTPUT_BYTES/,
    );
    expect(() => loadExecutorConfig({ ...base, EXECUTOR_TASK_API_URL: 'ftp://x/' })).toThrow(
      /EXECUTOR_TASK_API_URL/,
    );
  });
});

describe('the call', () => {
  it('sends the task’s request with the dsched headers and a valid Standard Webhooks signature', async () => {
    const j = job(`${target.url}/hook?q=1`);
    const result = await caller(['127.0.0.0/8'])(j, never());
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    const call = target.calls.at(-1)!;
    expect(call.path).toBe('/hook?q=1');
    expect(call.body).toBe('{"n":1}');
    expect(call.headers).toMatchObject({
      'x-app': 'a',
      'content-type': 'application/json',
      'idempotency-key': j.id,
      'dsched-attempt': '2',
      'dsched-scheduled-for': '2026-01-01T09:00:00.000Z',
      'dsched-task-id': j.taskId,
      'webhook-id': j.id,
    });
    const ts = Number(call.headers['webhook-timestamp']);
    expect(
      verifyWebhookSignature(j.signingSecret, j.id, ts, call.body, String(call.headers['webhook-signature'])),
    ).toBe(true);
  });

  it('does not follow redirects: a 302 is the outcome', async () => {
    target.setHandler(() => ({ status: 302, headers: { location: 'http://169.254.169.254/' } }));
    const result = await caller(['127.0.0.0/8'])(job(`${target.url}/r`), never());
    expect(result).toMatchObject({ kind: 'response', status: 302 });
    expect(target.calls.filter((c) => c.path === '/r')).toHaveLength(1);
  });

  it('honours the job timeout, and reads Retry-After', async () => {
    target.setHandler((call) =>
      call.path === '/slow'
        ? new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 3000))
        : { status: 503, headers: { 'retry-after': '7' } },
    );
    const slow = await caller(['127.0.0.0/8'])(job(`${target.url}/slow`, {}), never());
    expect(slow).toMatchObject({ kind: 'error', errorClass: 'timeout' });
    const busy = await caller(['127.0.0.0/8'])(job(`${target.url}/busy`), never());
    expect(busy).toMatchObject({ kind: 'response', status: 503, retryAfterMs: 7000 });
  });

  it('caps the request body, and reads no more than the cap of the response', async () => {
    const big = await caller(['127.0.0.0/8'], { maxRequestBytes: 5 })(job(`${target.url}/big`), never());
    expect(big).toMatchObject({ kind: 'error', errorClass: 'body_too_large' });
    target.setHandler(() => ({ status: 200, body: 'x'.repeat(1_000_000) }));
    const huge = await caller(['127.0.0.0/8'], { maxResponseBytes: 100 })(job(`${target.url}/huge`), never());
    expect(huge).toMatchObject({ kind: 'response', status: 200 });
  });

  it('bounds the body by the job timeout, fails a body cut short, and stops reading at the cap', async () => {
    // A plain server: headers at once, then a body that stalls, or one whose connection is cut
    // before its announced length.
    const server = createServer((req, res) => {
      if (req.url === '/endless') {
        // A body with no end: only the response cap ends the call before its timeout.
        res.writeHead(200);
        const more = setInterval(() => res.write('y'.repeat(64)), 5);
        res.on('close', () => clearInterval(more));
        return;
      }
      res.writeHead(200, { 'content-length': '100' });
      res.write('x'.repeat(10));
      if (req.url === '/cut') setTimeout(() => res.socket?.destroy(), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const stalled = await caller(['127.0.0.0/8'])(
        job(`${base}/stall`, {
          target: { url: `${base}/stall`, method: 'GET', headers: {}, timeoutMs: 300 },
        }),
        never(),
      );
      expect(stalled).toMatchObject({ kind: 'error', errorClass: 'timeout' });
      const cut = await caller(['127.0.0.0/8'])(job(`${base}/cut`), never());
      expect(cut).toMatchObject({ kind: 'error', errorClass: 'network' });
      const endless = await caller(['127.0.0.0/8'], { maxResponseBytes: 1000 })(
        job(`${base}/endless`, {
          target: { url: `${base}/endless`, method: 'GET', headers: {}, timeoutMs: 5000 },
        }),
        never(),
      );
      expect(endless).toMatchObject({ kind: 'response', status: 200 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('reports an abort by the executor as aborted', async () => {
    target.setHandler(() => new Promise(() => undefined));
    const abort = new CallAbortHook();
    setTimeout(() => abort.abort(new Error('cancel')), 100);
    const result = await caller(['127.0.0.0/8'])(job(`${target.url}/held`), abort);
    expect(result).toMatchObject({ kind: 'error', errorClass: 'aborted' });
    await target.until(
      () => target.abandoned.some((c) => c.path === '/held'),
      5000,
      'the target sees the abort',
    );
  });
});
