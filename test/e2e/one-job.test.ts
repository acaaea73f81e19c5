import { verifyWebhookSignature } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import { eventually, type ServiceName } from '@dsched/testkit/services';
import { type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';

// One job end to end through the six services as separate processes, real MariaDB, real
// Cassandra and a real HTTP target on loopback.

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const { db, ks } = useTestStores(import.meta.url);
let target: RecordingTarget;
let fleet: Fleet | undefined;

beforeAll(async () => {
  target = await startRecordingTarget();
  fleet = await startFleet({
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
    ...FAST_LOOPS,
  });
});

afterAll(async () => {
  await fleet?.stop();
  await target?.close();
});

const service = (name: ServiceName) => fleet!.service(name);

it('delivers a once task exactly once, signed, and serves it from history after archiving', async () => {
  const taskApi = service('task-api').url;
  const jobApi = service('job-api').url;

  const tenantRes = await fetch(`${taskApi}/v1/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'e2e' }),
  });
  expect(tenantRes.status).toBe(201);
  const tenant = (await tenantRes.json()) as { id: string; apiKey: string; signingSecret: string };

  /** A once task due in `inMs`, calling `target`. */
  const onceTask = (name: string, inMs: number, target: { url: string; body?: unknown }) =>
    fetch(`${taskApi}/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        schedule: { type: 'once', at: new Date(Date.now() + inMs).toISOString() },
        target,
      }),
    });
  const taskRes = await onceTask('hello', 500, { url: `${target.url}/hook`, body: { hello: 'world' } });
  expect(taskRes.status).toBe(201);
  const task = (await taskRes.json()) as { id: string };

  const [call] = await target.waitForCalls(1, 30_000);
  const jobId = String(call!.headers['idempotency-key']);
  expect(call!.url).toBe('/hook');
  expect(call!.body).toBe('{"hello":"world"}');
  expect(call!.headers['dsched-attempt']).toBe('1');
  expect(call!.headers['dsched-task-id']).toBe(task.id);
  expect(call!.headers['webhook-id']).toBe(jobId);
  expect(
    verifyWebhookSignature(
      tenant.signingSecret,
      jobId,
      Number(call!.headers['webhook-timestamp']),
      call!.body,
      String(call!.headers['webhook-signature']),
    ),
  ).toBe(true);

  // The archiver moves it: gone from MySQL, present in Cassandra.
  await eventually(
    async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM jobs');
      return Number(rows[0]!.n) === 0 ? true : undefined;
    },
    30_000,
    'job archived out of MySQL',
  );
  const archived = await ks.client.execute('SELECT doc FROM jobs_by_id');
  expect(archived.rows).toHaveLength(1);

  const jobRes = await fetch(`${jobApi}/v1/jobs/${jobId}`, {
    headers: { authorization: `Bearer ${tenant.apiKey}` },
  });
  expect(jobRes.status).toBe(200);
  const job = (await jobRes.json()) as Record<string, unknown>;
  expect(job).toMatchObject({ id: jobId, taskId: task.id, state: 'succeeded', attempt: 1, lastStatus: 200 });
  expect(job.attempts).toMatchObject([{ attempt: 1, status: 200 }]);

  // Exactly once: nothing else arrives. A sentinel once task made now is called: the scheduler's
  // and the executor's passes since made and called nothing more of the first.
  expect((await onceTask('sentinel', 200, { url: `${target.url}/sentinel` })).status).toBe(201);
  await eventually(
    async () => (target.calls.some((c) => c.url === '/sentinel') ? true : undefined),
    30_000,
    'the sentinel called',
  );
  expect(target.calls.map((c) => c.url)).toEqual(['/hook', '/sentinel']);
});
