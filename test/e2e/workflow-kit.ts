import { type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll } from 'vitest';

// The set-up the workflow end-to-end files share: a database and a keyspace of the file's own, the
// services' settings, services started as processes (each one stopped after the file, even when
// its beforeAll did not finish), one tenant made through task-api's admin route, and that tenant's
// calls to the task-api started last (a file may stop its fleet and start another).

type ServiceName = Parameters<typeof startService>[0];

export interface WorkflowFleet {
  db: ReturnType<typeof useTestStores>['db'];
  ks: ReturnType<typeof useTestStores>['ks'];
  /** Starts a service with the file's settings and `extra` on top; `wait: false` returns before it is ready. */
  start(name: ServiceName, extra?: Record<string, string>, wait?: boolean): Promise<RunningService>;
  /** The task-api started last. */
  taskApi(): RunningService;
  /** Makes the file's tenant through the admin route; later `api` calls carry its key. */
  createTenant(name: string): Promise<void>;
  /** A call to task-api as the tenant: the status and the parsed body. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies as the tests read them
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
}

/**
 * Registers the file's stores and the hook that stops its services. `settings`: the file's own
 * environment on top of the shared one (loopback targets allowed, 50 ms executor polls, 300 ms
 * reconciler passes).
 */
export function useWorkflowFleet(
  fileUrl: string,
  o: { adminToken: string; settings?: Record<string, string> },
): WorkflowFleet {
  const { db, ks } = useTestStores(fileUrl);
  const started: RunningService[] = [];
  let taskApi: RunningService | undefined;
  let apiKey = '';
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
  });
  const env = () => ({
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: o.adminToken,
    EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
    EXECUTOR_POLL_MS: '50',
    RECONCILER_INTERVAL_MS: '300',
    RECONCILER_WORKFLOW_INTERVAL_MS: '300',
    ...o.settings,
  });
  const current = (): RunningService => {
    if (!taskApi) throw new Error('useWorkflowFleet: no task-api started');
    return taskApi;
  };
  return {
    db,
    ks,
    async start(name, extra = {}, wait = true) {
      const service = await startService(name, { ...env(), ...extra }, { waitReady: wait });
      started.push(service);
      if (name === 'task-api') taskApi = service;
      return service;
    },
    taskApi: current,
    async createTenant(name) {
      const res = await fetch(`${current().url}/v1/admin/tenants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${o.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (res.status !== 201) throw new Error(`tenant ${name}: ${res.status} ${await res.text()}`);
      apiKey = ((await res.json()) as { apiKey: string }).apiKey;
    },
    async api(method, path, body) {
      const res = await fetch(`${current().url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: await res.json() };
    },
  };
}
