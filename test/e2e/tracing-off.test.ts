import { createServer, type Server } from 'node:http';
import { parseTraceparent } from '@dsched/domain';
import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT), every other OTEL_* variable set as if it were on:
// nothing is exported, not even to where an OTLP exporter sends by default, and nothing about
// exporting is logged; calls still carry a traceparent of the trace job-api shows (docs/tracing.md).

const ADMIN_TOKEN = 'e2e-tracing-off-admin-token-0';
const { db, ks } = useTestStores(import.meta.url);
let target: ScriptedTarget;
let receiver: Server;
const received: string[] = [];
let off: Fleet | undefined;

beforeAll(async () => {
  // Where an OTLP exporter sends by default (localhost:4318): a receiver that records anything.
  receiver = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    receiver.once('error', (err) =>
      reject(new Error(`127.0.0.1:4318 is taken (a Jaeger of scripts/jaeger up?): ${err}`)),
    );
    receiver.listen(4318, '127.0.0.1', resolve);
  });
  target = await startScriptedTarget();
  off = await startFleet(
    {
      DATABASE_URL: db.url,
      CASSANDRA_KEYSPACE: ks.keyspace,
      DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
      ...FAST_LOOPS,
      LOG_LEVEL: 'debug',
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    ['task-api', 'scheduler', 'executor', 'job-api'],
  );
});

afterAll(async () => {
  await off?.stop();
  await target?.close();
  await new Promise((r) => receiver?.close(r));
});

async function api(method: string, base: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON of the APIs
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

describe('with no endpoint', () => {
  it('exports nothing and logs no exporter error', async () => {
    const taskApi = off!.service('task-api').url;
    const tenant = await api('POST', taskApi, '/v1/admin/tenants', ADMIN_TOKEN, { name: 'untraced' });
    const task = await api('POST', taskApi, '/v1/tasks', tenant.json.apiKey, {
      name: 'untraced',
      schedule: { type: 'once', at: new Date(Date.now() + 300).toISOString() },
      target: { url: `${target.url}/untraced` },
    });
    expect(task.status).toBe(201);
    await target.until(() => target.calls.length > 0, 30_000, 'the call');
    const call = target.calls[0]!;
    // The call still carries a traceparent, of the trace job-api shows, not sampled.
    const parent = parseTraceparent(String(call.headers.traceparent))!;
    expect(parent.sampled).toBe(false);
    const view = await eventually(async () => {
      const v = await api(
        'GET',
        off!.service('job-api').url,
        `/v1/jobs/${call.idempotencyKey}`,
        tenant.json.apiKey,
      );
      return v.json.state === 'succeeded' && v.json.attempts.length === 1 ? v.json : undefined;
    });
    expect(view.attempts[0].traceId).toBe(parent.traceId);
    // Stopped with SIGTERM, each service exports what its batch processor holds before it exits
    // (tracing.ts, shutdown): had there been an exporter, its spans would have reached the receiver
    // by the time the stop returns. No fixed wait for batch-processor rounds.
    const fleet = off!;
    off = undefined;
    await fleet.stop();
    expect(received).toEqual([]);
    for (const s of fleet.services) {
      // The SDK's complaints reach the log as component "opentelemetry" (tracing.ts); none, and no
      // "tracing on" line.
      expect(s.output(), s.name).not.toMatch(/"component":"opentelemetry"|tracing on|OTLP/);
      expect(s.output(), s.name).toMatch(/"level":"debug"|"level":"info"/);
    }
  });
});
