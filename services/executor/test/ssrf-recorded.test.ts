import { isIP } from 'node:net';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createLogger, createRegistry } from '@dsched/runtime';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { testKeyring } from '@dsched/testkit/secrets';
import { eventually } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { expect, it } from 'vitest';
import type { Resolver, SocketOpener } from '../src/adapters/guarded-connector.ts';
import { httpTargetCaller } from '../src/adapters/http-caller.ts';
import {
  mysqlCancelWatcher,
  mysqlJobClaimer,
  mysqlLeaseRenewer,
  mysqlNodeWaker,
  mysqlOutcomeWriter,
} from '../src/adapters/mysql.ts';
import { parseAllowList } from '../src/adapters/target-policy.ts';
import { buildExecutor } from '../src/core/executor.ts';
import { ExecutorMetrics } from '../src/metrics.ts';

// The executor assembled in-process on real MariaDB, with the resolver injected and a socket
// opener that never dials anything (a refused target must never reach it): SSRF targets are
// refused, dead-lettered at once and recorded with their reason.

const db = useTestDatabase(import.meta.url);
const dialled: string[] = [];

it('refuses and records the metadata address and a name resolving to 10.x', async () => {
  const resolve: Resolver = async (host) => {
    const address = host === 'metadata.example' ? '169.254.169.254' : '10.9.8.7';
    return [{ address, family: isIP(address) }];
  };
  const open: SocketOpener = async (target) => {
    dialled.push(target.address);
    throw new Error(`test opener never dials (${target.address})`);
  };
  const registry = createRegistry('executor');
  const metrics = new ExecutorMetrics(registry);
  const call = httpTargetCaller({
    allow: parseAllowList(['127.0.0.0/8']),
    maxRequestBytes: 1024,
    maxResponseBytes: 1024,
    connectTimeoutMs: 1000,
    connectionsPerOrigin: 2,
    resolve,
    open,
  });
  const owner = 'exec-inproc';
  const executor = buildExecutor(
    {
      claim: mysqlJobClaimer(db.pool, {
        owner,
        leaseSeconds: 30,
        deferMs: 1000,
        keyring: testKeyring(),
        nodeInputs: { maxRequestBytes: 256 * 1024, taskApiUrl: 'http://127.0.0.1:8080' },
      }),
      call,
      writeOutcomes: mysqlOutcomeWriter(db.pool),
      renew: mysqlLeaseRenewer(db.pool, { owner, leaseSeconds: 30 }),
      cancelRequested: mysqlCancelWatcher(db.pool, { owner }),
      wakeNodes: mysqlNodeWaker(db.pool, { maxOutputBytes: 262_144, taskApiUrl: 'http://127.0.0.1:8080' }),
      metrics,
      logger: createLogger('executor', 'silent'),
      random: () => 0.5,
      monotonicMs: () => performance.now(),
    },
    {
      lanes: [{ lane: 'default', concurrency: 4, pollMs: 20 }],
      maxClaimBatch: 10,
      outcomeBatch: 10,
      leaseSeconds: 30,
      cancelPollMs: 1000,
      park: { heartbeatSeconds: 60, deadlineSeconds: 600 },
      wake: { pollMs: 200, batch: 10 },
    },
  );
  const tenant = await createTenantWithKey(db.pool);
  const urls = [
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.example/',
    'http://internal.example/',
  ];
  // One after the other, so the ids (time-ordered) follow the list.
  const ids: string[] = [];
  for (const url of urls)
    ids.push(...(await insertDueJobs(db.pool, { tenantId: tenant.id, target: { url } })));
  for (const loop of executor.claimLoops) loop.start();
  try {
    const rows = await eventually(async () => {
      const [r] = await db.pool.query<RowDataPacket[]>(
        `SELECT j.state, j.attempt, j.last_error, a.error_class, a.status
           FROM jobs j JOIN job_attempts a ON a.job_id = j.id WHERE j.state = 'dead' ORDER BY j.id`,
      );
      return r.length === ids.length ? r : undefined;
    });
    expect(rows.map((r) => [r.state, r.attempt, r.error_class, r.status])).toEqual(
      ids.map(() => ['dead', 1, 'refused', null]),
    );
    expect(rows.map((r) => r.last_error)).toEqual([
      expect.stringMatching(/169\.254\.169\.254.*metadata/),
      expect.stringMatching(/metadata\.example resolves to 169\.254\.169\.254, a cloud metadata address/),
      expect.stringMatching(/internal\.example resolves to 10\.9\.8\.7, private/),
    ]);
    expect(dialled).toEqual([]);
    // Counted just after each outcome commits.
    await eventually(async () =>
      (await metrics.dlqAdditions.get()).values[0]?.value === 3 ? true : undefined,
    );
    expect((await metrics.targetsRefused.get()).values[0]?.value).toBe(3);
  } finally {
    await Promise.all(executor.claimLoops.map((l) => l.stop()));
    await executor.drain(1000);
    await call.close();
  }
});
