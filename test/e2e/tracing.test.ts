import { parseTraceparent } from '@dsched/domain';
import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import {
  describeTrace,
  type JaegerSpan,
  type JaegerTrace,
  parentOf,
  type RunningJaeger,
  serviceOf,
  startJaeger,
  tagOf,
} from '@dsched/testkit/jaeger';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './cli-kit.ts';

// One occurrence is one trace (docs/tracing.md), seen in a real Jaeger's query API: the six
// services as processes export to it over OTLP/HTTP, and the test's target continues the
// `traceparent` it receives with a span of its own, exported with the SDK like any tenant's.

const ADMIN_TOKEN = 'e2e-tracing-admin-token-0123';
const LEASE_S = 4;
const { db, ks } = useTestStores(import.meta.url);
let jaeger: RunningJaeger;
let target: ScriptedTarget;
let fleet: Fleet | undefined;
const extra: RunningService[] = [];
let tenantKey: string;
let targetTraces: TracerProvider;
let env: Record<string, string>;

beforeAll(async () => {
  jaeger = await startJaeger();
  // The tenant's service: its own tracer, continuing dsched's traceparent.
  targetTraces = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'test-target' }),
    spanProcessors: [
      new SimpleSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${jaeger.otlpEndpoint}/v1/traces` }),
      }),
    ],
  });
  target = await startScriptedTarget();
  env = {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
    ...FAST_LOOPS,
    EXECUTOR_LEASE_S: String(LEASE_S),
    RECONCILER_INTERVAL_MS: '300',
    OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  fleet = await startFleet(env);
  const res = await api(
    'POST',
    fleet.service('task-api').url,
    '/v1/admin/tenants',
    { name: 'traced' },
    ADMIN_TOKEN,
  );
  expect(res.status).toBe(201);
  tenantKey = res.json.apiKey;
});

afterAll(async () => {
  await Promise.all(extra.map((s) => s.stop('SIGKILL')));
  await fleet?.stop();
  await target?.close();
  await targetTraces?.shutdown();
  await jaeger?.stop();
});

/** The target answers with `status(call)`, inside a span of its own that continues the call's traceparent. */
function answerTraced(status: (attempt: number, path: string) => number | 'hang'): void {
  target.setHandler(async (call, gone) => {
    const parent = parseTraceparent(String(call.headers.traceparent));
    const span = targetTraces.getTracer('test-target').startSpan(
      'handle webhook',
      { kind: SpanKind.SERVER, attributes: { 'dsched.job.attempt': call.attempt } },
      parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.spanId,
            traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          })
        : ROOT_CONTEXT,
    );
    const answer = status(call.attempt, call.path);
    if (answer === 'hang') await new Promise((r) => gone.addEventListener('abort', r));
    span.end();
    return { status: answer === 'hang' ? 500 : answer };
  });
}

async function api(method: string, base: string, path: string, body?: unknown, key = tenantKey) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON of the APIs
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

const spansOf = (t: JaegerTrace, service: string, name?: string) =>
  t.spans.filter((s) => serviceOf(t, s) === service && (name === undefined || s.operationName === name));

describe('one occurrence, one trace', () => {
  it('a cron occurrence that fails once then succeeds: scheduler, two attempts, the archiver and the target, one trace', async () => {
    answerTraced((attempt) => (attempt === 1 ? 503 : 200));
    const taskApi = fleet!.service('task-api').url;
    const jobApi = fleet!.service('job-api').url;
    // One occurrence within seconds: a cron of one second of the hour (6-field, UTC).
    const at = new Date(Date.now() + 3000);
    const task = await api('POST', taskApi, '/v1/tasks', {
      name: 'traced-cron',
      schedule: {
        type: 'cron',
        expression: `${at.getUTCSeconds()} ${at.getUTCMinutes()} * * * *`,
        timezone: 'UTC',
      },
      target: { url: `${target.url}/cron` },
      retry: { maxAttempts: 3, initialBackoffMs: 200, maxBackoffMs: 500 },
    });
    expect(task.status, JSON.stringify(task.json)).toBe(201);
    const job = await eventually(
      async () => {
        const runs = await api('GET', jobApi, `/v1/tasks/${task.json.id}/runs`);
        const run = runs.json?.jobs?.[0] ?? runs.json?.runs?.[0] ?? runs.json?.items?.[0];
        return run?.state === 'succeeded' ? run : undefined;
      },
      60_000,
      'the occurrence succeeded',
    );
    // Read again if it raced the archiver (job-api reads a live job's row and its attempts in two
    // statements: the archiver's delete between them shows a job with no attempts for a moment).
    const view = await eventually(
      async () => {
        const v = await api('GET', jobApi, `/v1/jobs/${job.id}`);
        return v.json.attempts.length === 2 ? v : undefined;
      },
      10_000,
      'the job with its two attempts',
    );
    const traceIds = view.json.attempts.map((a: { traceId?: string }) => a.traceId);
    expect(traceIds, JSON.stringify(view.json)).toHaveLength(2);
    expect(new Set(traceIds).size).toBe(1);
    const traceId: string = traceIds[0];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    // The CLI prints it.
    const printed = await cli(['run', 'get', job.id], {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      DSCHED_KEY: tenantKey,
      DSCHED_TASK_API: taskApi,
      DSCHED_JOB_API: jobApi,
    });
    expect(printed.stdout, printed.stderr).toMatch(new RegExp(`^trace +${traceId}$`, 'm'));
    // The target saw that trace on both calls.
    const seen = target.calls.filter((c) => c.idempotencyKey === job.id);
    expect(seen.map((c) => parseTraceparent(String(c.headers.traceparent))?.traceId)).toEqual([
      traceId,
      traceId,
    ]);

    const t = await jaeger.waitForTrace(
      traceId,
      (t) =>
        spansOf(t, 'archiver', 'archive').length === 1 &&
        spansOf(t, 'archiver', 'occurrence').length === 1 &&
        spansOf(t, 'test-target').length === 2 &&
        spansOf(t, 'executor', 'process default').length === 2,
    );
    // The job was born in the scheduler's batch: one `create jobs` span (a trace of its own) links
    // to the occurrence's root, which the archiver exported with the ids the job stored at birth.
    expect(spansOf(t, 'scheduler'), describeTrace(t)).toEqual([]);
    const [create] = spansOf(t, 'archiver', 'occurrence');
    expect(create, describeTrace(t)).toBeDefined();
    expect(tagOf(create!, 'messaging.message.id')).toBe(job.id);
    expect(parentOf(create!)).toBeUndefined();
    const batch = await linkingSpan('scheduler', 'create jobs', traceId);
    expect(batch.link.spanID).toBe(create!.spanID);
    expect(tagOf(batch.span, 'messaging.operation.type')).toBe('create');
    const processes = spansOf(t, 'executor', 'process default').sort(
      (a, b) => Number(tagOf(a, 'dsched.job.attempt')) - Number(tagOf(b, 'dsched.job.attempt')),
    );
    expect(processes.map((s) => tagOf(s, 'dsched.job.attempt'))).toEqual([1, 2]);
    expect(processes.map((s) => tagOf(s, 'dsched.job.outcome'))).toEqual(['retry', 'succeeded']);
    for (const p of processes) expect(parentOf(p), describeTrace(t)).toBe(create!.spanID);
    const calls = spansOf(t, 'executor', 'POST');
    expect(calls.map((c) => parentOf(c)).sort()).toEqual(processes.map((p) => p.spanID).sort());
    expect(calls.map((c) => tagOf(c, 'http.response.status_code')).sort()).toEqual([200, 503]);
    // The target's spans are children of the call spans: it continued the traceparent it received.
    expect(
      spansOf(t, 'test-target')
        .map((s) => parentOf(s))
        .sort(),
    ).toEqual(calls.map((c) => c.spanID).sort());
    expect(parentOf(spansOf(t, 'archiver', 'archive')[0]!)).toBe(create!.spanID);
  });

  it('a workflow of three levels is one trace whose node spans start in dependency order', async () => {
    answerTraced(() => 200);
    const taskApi = fleet!.service('task-api').url;
    const jobApi = fleet!.service('job-api').url;
    const node = (id: string, dependsOn: string[]) => ({
      id,
      dependsOn,
      target: { url: `${target.url}/wf/${id}` },
    });
    const wf = await api('POST', taskApi, '/v1/workflows', {
      name: 'traced-dag',
      nodes: [node('extract', []), node('transform', ['extract']), node('load', ['transform'])],
    });
    expect(wf.status, JSON.stringify(wf.json)).toBe(201);
    await eventually(
      async () => {
        const w = await api('GET', taskApi, `/v1/workflows/${wf.json.id}`);
        return w.json.state === 'succeeded' ? true : undefined;
      },
      60_000,
      'the run succeeded',
    );
    const nodes = (await api('GET', taskApi, `/v1/workflows/${wf.json.id}/nodes`)).json;
    const list: { nodeId?: string; id?: string; jobId: string }[] = nodes.nodes ?? nodes.items ?? nodes;
    const traceIds = await Promise.all(
      list.map(
        async (n) => (await api('GET', jobApi, `/v1/jobs/${n.jobId}`)).json.attempts[0].traceId as string,
      ),
    );
    expect(new Set(traceIds).size).toBe(1);
    const t = await jaeger.waitForTrace(
      traceIds[0]!,
      (t) => spansOf(t, 'executor', 'process default').length === 3,
    );
    const [root] = spansOf(t, 'task-api', 'create workflow');
    expect(root, describeTrace(t)).toBeDefined();
    const start = (nodeId: string) =>
      spansOf(t, 'executor', 'process default').find((s) => tagOf(s, 'dsched.workflow.node.id') === nodeId)!;
    const [e, tr, l] = [start('extract'), start('transform'), start('load')];
    expect(e.startTime).toBeLessThan(tr.startTime);
    expect(tr.startTime).toBeLessThan(l.startTime);
    // Each node starts after its parent's attempt ended.
    expect(e.startTime + e.duration).toBeLessThanOrEqual(tr.startTime);
    expect(tr.startTime + tr.duration).toBeLessThanOrEqual(l.startTime);
    for (const s of [e, tr, l]) expect(parentOf(s)).toBe(root!.spanID);
  });

  it('kill -9 the executor mid-call: the reconciler gives the job back (or dead-letters the last attempt) and the re-run attempt is a span of the same trace', async () => {
    answerTraced((attempt) => (attempt === 1 ? 'hang' : 200));
    const taskApi = fleet!.service('task-api').url;
    const jobApi = fleet!.service('job-api').url;
    const at = new Date(Date.now() + 500).toISOString();
    const task = await api('POST', taskApi, '/v1/tasks', {
      name: 'traced-crash',
      schedule: { type: 'once', at },
      target: { url: `${target.url}/crash`, timeoutMs: 60_000 },
    });
    expect(task.status).toBe(201);
    // Its only attempt is cut by the same kill: the reconciler dead-letters it.
    const last = await api('POST', taskApi, '/v1/tasks', {
      name: 'traced-crash-last',
      schedule: { type: 'once', at },
      target: { url: `${target.url}/crash-last`, timeoutMs: 60_000 },
      retry: { maxAttempts: 1 },
    });
    expect(last.status).toBe(201);
    await target.until(
      () =>
        target.calls.some((c) => c.path === '/crash') && target.calls.some((c) => c.path === '/crash-last'),
      30_000,
      'the first calls',
    );
    const first = target.calls.find((c) => c.path === '/crash')!;
    const traceId = parseTraceparent(String(first.headers.traceparent))!.traceId;
    const lastCall = target.calls.find((c) => c.path === '/crash-last')!;
    const lastTraceId = parseTraceparent(String(lastCall.headers.traceparent))!.traceId;
    const executor = fleet!.service('executor');
    executor.process.kill('SIGKILL');
    await executor.exited;
    extra.push(await startService('executor', { ...env, INSTANCE_ID: 'executor-after-crash' }));
    await target.until(
      () => target.calls.filter((c) => c.path === '/crash').length >= 2,
      60_000,
      'the re-run',
    );
    const view = await eventually(
      async () => {
        const v = await api('GET', jobApi, `/v1/jobs/${first.idempotencyKey}`);
        return v.json.state === 'succeeded' ? v.json : undefined;
      },
      30_000,
      'the re-run succeeded',
    );
    expect(view.attempts.map((a: { traceId: string }) => a.traceId)).toEqual([traceId, traceId]);
    const t = await jaeger.waitForTrace(traceId, (t) =>
      spansOf(t, 'executor', 'process default').some((s) => tagOf(s, 'dsched.job.attempt') === 2),
    );
    const rerun = spansOf(t, 'executor', 'process default').find(
      (s) => tagOf(s, 'dsched.job.attempt') === 2,
    )!;
    expect(tagOf(rerun, 'dsched.job.outcome')).toBe('succeeded');
    expect(tagOf(rerun, 'messaging.client.id')).toBe('executor-after-crash');
    // The killed attempt exported nothing of its own, but the target's span of that call is there.
    expect(spansOf(t, 'test-target').length).toBeGreaterThanOrEqual(1);
    // The reconciler's give-back of the killed attempt is a span of the trace, a child of the
    // job's birth, linked to the reconciler's batch span.
    const create = await endSpan(traceId, 'archiver', 'occurrence');
    const back = await endSpan(traceId, 'reconciler', 'give back default');
    expect(tagOf(back, 'dsched.job.attempt'), describeTrace(t)).toBe(1);
    expect(tagOf(back, 'dsched.job.outcome')).toBe('give_back');
    expect(tagOf(back, 'dsched.job.reason')).toBe('lease_expired');
    expect(tagOf(back, 'messaging.operation.type')).toBe('settle');
    expect(tagOf(back, 'messaging.message.id')).toBe(first.idempotencyKey);
    expect(parentOf(back)).toBe(create.spanID);
    await expectBatchLink(back, 'reconciler');
    // The job whose last attempt the kill cut: the reconciler's dead-lettering is its span.
    const dead = await endSpan(lastTraceId, 'reconciler', 'dead-letter default');
    expect(tagOf(dead, 'dsched.job.outcome')).toBe('dead');
    expect(tagOf(dead, 'messaging.message.id')).toBe(lastCall.idempotencyKey);
    expect(dead.logs?.some((l) => l.fields.some((f) => f.value === 'dead-lettered'))).toBe(true);
    await expectBatchLink(dead, 'reconciler');
  });
});

describe('the ends that are not an executor outcome are spans of the occurrence', () => {
  it('a 202 job completed through job-api shows the completion; one cancelled, the cancel', async () => {
    answerTraced(() => 202);
    const taskApi = fleet!.service('task-api').url;
    const jobApi = fleet!.service('job-api').url;
    const at = new Date(Date.now() + 500).toISOString();
    for (const name of ['async-complete', 'async-cancel']) {
      const task = await api('POST', taskApi, '/v1/tasks', {
        name,
        schedule: { type: 'once', at },
        target: { url: `${target.url}/${name}` },
      });
      expect(task.status, JSON.stringify(task.json)).toBe(201);
    }
    const callTo = (path: string) => target.calls.find((c) => c.path === path);
    await target.until(
      () => callTo('/async-complete') !== undefined && callTo('/async-cancel') !== undefined,
      30_000,
      'the two calls',
    );
    const completed = callTo('/async-complete')!;
    const cancelled = callTo('/async-cancel')!;
    // Both parked (the executor recorded the 202) before job-api ends them.
    for (const c of [completed, cancelled]) {
      await eventually(
        async () => {
          const v = await api('GET', jobApi, `/v1/jobs/${c.idempotencyKey}`);
          return v.json.attempts?.length === 1 ? true : undefined;
        },
        10_000,
        'the job parked',
      );
    }
    const done = await api('POST', jobApi, `/v1/jobs/${completed.idempotencyKey}/complete`, {
      attempt: 1,
      outcome: 'succeeded',
    });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const cancel = await api('POST', jobApi, `/v1/jobs/${cancelled.idempotencyKey}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.json)).toBe(200);

    const completeSpan = await endSpan(
      parseTraceparent(String(completed.headers.traceparent))!.traceId,
      'job-api',
      'complete default',
    );
    expect(tagOf(completeSpan, 'dsched.job.outcome')).toBe('succeeded');
    expect(tagOf(completeSpan, 'dsched.job.attempt')).toBe(1);
    expect(tagOf(completeSpan, 'messaging.operation.name')).toBe('complete');
    expect(tagOf(completeSpan, 'messaging.message.id')).toBe(completed.idempotencyKey);
    const cancelSpan = await endSpan(
      parseTraceparent(String(cancelled.headers.traceparent))!.traceId,
      'job-api',
      'cancel default',
    );
    expect(tagOf(cancelSpan, 'dsched.job.outcome')).toBe('cancelled');
    expect(tagOf(cancelSpan, 'messaging.message.id')).toBe(cancelled.idempotencyKey);
    // Each is linked to the request's span, in the trace of whoever called job-api.
    for (const span of [completeSpan, cancelSpan]) {
      const link = span.references.find((r) => r.refType === 'FOLLOWS_FROM');
      expect(link, JSON.stringify(span.references)).toBeDefined();
    }
  });
});

/** A span of that service and name (in a trace of its own) with a link into `traceId`, and the link. */
async function linkingSpan(service: string, operation: string, traceId: string) {
  return eventually(
    async () => {
      const url = `${jaeger.queryUrl}/api/traces?service=${service}&operation=${encodeURIComponent(operation)}&limit=1000&lookback=1h`;
      const found = (await (await fetch(url)).json()) as { data: JaegerTrace[] };
      for (const t of found.data ?? []) {
        for (const span of t.spans) {
          const link = span.references.find((r) => r.refType === 'FOLLOWS_FROM' && r.traceID === traceId);
          if (span.operationName === operation && link) return { span, link };
        }
      }
      return undefined;
    },
    30_000,
    `a ${service} ${operation} span linked to ${traceId}`,
  );
}

/** The span of that name a service made in a trace, waiting for it to arrive. */
async function endSpan(traceId: string, service: string, name: string) {
  const t = await jaeger.waitForTrace(traceId, (t) => spansOf(t, service, name).length > 0);
  const span = spansOf(t, service, name)[0];
  expect(span, describeTrace(t)).toBeDefined();
  return span!;
}

/** A job's end is linked to its service's `settle jobs` span (a trace of its own, the batch's). */
async function expectBatchLink(span: JaegerSpan, service: string): Promise<void> {
  const link = span.references.find((r) => r.refType === 'FOLLOWS_FROM');
  expect(link, JSON.stringify(span.references)).toBeDefined();
  const batch = await jaeger.waitForTrace(link!.traceID, (b) =>
    b.spans.some((s) => s.spanID === link!.spanID),
  );
  const linked = batch.spans.find((s) => s.spanID === link!.spanID)!;
  expect(serviceOf(batch, linked)).toBe(service);
  expect(linked.operationName).toBe('settle jobs');
}
