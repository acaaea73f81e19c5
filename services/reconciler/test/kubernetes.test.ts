import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubernetesClient } from '../src/adapters/kubernetes.ts';

// The Kubernetes accelerator against a STUB of the Kubernetes API (we run no API server here): a
// loopback HTTP server answering GET /api/v1/namespaces/{ns}/pods/{name} the way the API does.
// The reconciler itself runs as a real process on the real MariaDB.

const db = useTestDatabase(import.meta.url);
let stub: Server;
let stubUrl: string;
const stubCalls: string[] = [];
let reconciler: RunningService | undefined;

const PODS: Record<string, { status: number; body: unknown }> = {
  'executor-alive-0': {
    status: 200,
    body: { kind: 'Pod', metadata: { name: 'executor-alive-0' }, status: { phase: 'Running' } },
  },
  'executor-done-0': {
    status: 200,
    body: { kind: 'Pod', metadata: { name: 'executor-done-0' }, status: { phase: 'Failed' } },
  },
  'executor-flaky-0': { status: 500, body: { kind: 'Status', code: 500, message: 'etcd unavailable' } },
};

beforeAll(async () => {
  stub = createServer((req, res) => {
    stubCalls.push(`${req.method} ${req.url}`);
    const m = /^\/api\/v1\/namespaces\/executors\/pods\/([^/?]+)/.exec(req.url ?? '');
    const pod = m ? PODS[m[1]!] : undefined;
    const answer = pod ?? {
      status: 404,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: 'pods not found',
      },
    };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  const address = stub.address();
  stubUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await reconciler?.stop();
  await new Promise((r) => stub.close(r));
});

function kubeconfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsched-kube-'));
  const file = join(dir, 'config');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      // The stub speaks plain HTTP on loopback; the client refuses that unless told to skip TLS.
      clusters: [{ name: 'stub', cluster: { server: stubUrl, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'stub', user: { token: 'stub-token' } }],
      contexts: [{ name: 'stub', context: { cluster: 'stub', user: 'stub' } }],
      'current-context': 'stub',
    }),
  );
  return file;
}

describe('the Kubernetes accelerator (stub Kubernetes API)', () => {
  it('gives back the claims of executor pods that are gone at once, and leaves the others to their lease', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const leaseInAnHour = new Date(Date.now() + 3_600_000);
    const running = (claimedBy: string, n: number) =>
      Array.from({ length: n }, () => ({
        tenantId: tenant.id,
        taskId: null,
        scheduledFor: new Date(Date.now() - 1000),
        state: 'running' as const,
        claimedBy,
        leaseExpiresAt: leaseInAnHour,
      }));
    const gone = await insertJobs(db.pool, [
      ...running('executor-gone-0', 5),
      ...running('executor-done-0', 2),
    ]);
    const kept = await insertJobs(db.pool, [
      ...running('executor-alive-0', 3),
      ...running('executor-flaky-0', 2), // the API fails for this one: unknown counts as alive
    ]);
    reconciler = await startService('reconciler', {
      DATABASE_URL: db.url,
      RECONCILER_KUBECONFIG: kubeconfig(),
      RECONCILER_KUBERNETES_NAMESPACE: 'executors',
      RECONCILER_KUBERNETES_INTERVAL_MS: '200',
      RECONCILER_GAUGES_INTERVAL_MS: '200',
    });
    const states = async (ids: string[]) => {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        'SELECT state, last_error FROM jobs WHERE id IN (?)',
        [ids.map(idToBin)],
      );
      return rows;
    };
    await eventually(
      async () => ((await states(gone)).every((r) => r.state === 'pending') ? true : undefined),
      20_000,
      'claims of gone executors given back',
    );
    expect((await states(gone)).map((r) => r.last_error)).toEqual(Array(7).fill('executor gone'));
    // The lease of the others runs for an hour: only the accelerator could have moved them.
    const left = await states(kept);
    expect(left.filter((r) => r.state === 'running')).toHaveLength(5);
    expect(stubCalls.some((c) => c.includes('/pods/executor-alive-0'))).toBe(true);
    const metrics = await (await fetch(`${reconciler.url}/metrics`)).text();
    expect(metrics).toMatch(/dsched_reconciler_released_total\{reason="executor_gone"[^}]*\} 7/);
    expect(metrics).toMatch(/dsched_ready_backlog\{lane="default"[^}]*\} \d+/);
    expect(metrics).toMatch(/dsched_dlq_size\{[^}]*\} 0/);
  });
});

describe('without Kubernetes', () => {
  it('is off, so the lease path alone holds', () => {
    expect(kubernetesClient({ mode: 'auto', env: {} })).toBeNull();
    expect(kubernetesClient({ mode: 'off', env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' } })).toBeNull();
  });

  it('refuses to start when required but not available, naming the variable', () => {
    expect(() => kubernetesClient({ mode: 'on', env: {} })).toThrow(/RECONCILER_KUBERNETES/);
    expect(() => kubernetesClient({ mode: 'auto', kubeconfig: '/nonexistent/kubeconfig', env: {} })).toThrow(
      /RECONCILER_KUBECONFIG/,
    );
  });
});
