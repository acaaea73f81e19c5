import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import { REPO_ROOT } from '@dsched/testkit/names';
import { runToEnd } from '@dsched/testkit/processes';
import { pythonToolVenv } from '@dsched/testkit/python';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The Python client's pytest suite (clients/python/tests) against task-api, job-api and an
// executor as processes on this file's database and keyspace: it creates tenants and tasks, walks
// runs page by page, meets typed errors and retries, and receives a signed call from the executor
// in the README's Flask receiver. Its last test regenerates the client and fails when the
// committed code is stale against the OpenAPI documents.

const ADMIN_TOKEN = 'python-client-admin-token-0123456789';
const { db, ks } = useTestStores(import.meta.url);
let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet(
    { DATABASE_URL: db.url, CASSANDRA_KEYSPACE: ks.keyspace, DSCHED_ADMIN_TOKEN: ADMIN_TOKEN, ...FAST_LOOPS },
    ['task-api', 'job-api', 'executor'],
  );
});

afterAll(async () => {
  await fleet?.stop();
});

it('pytest clients/python/tests passes against the live APIs', async () => {
  const venv = pythonToolVenv('test');
  const pytest = await runToEnd(
    `${venv}/bin/python`,
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'clients/python/tests'],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...(process.env.DSCHED_CACHE ? { DSCHED_CACHE: process.env.DSCHED_CACHE } : {}),
        PYTHONPATH: `${REPO_ROOT}clients/python/src`,
        PYTHONDONTWRITEBYTECODE: '1',
        DSCHED_TEST_TASK_API: fleet.service('task-api').url,
        DSCHED_TEST_JOB_API: fleet.service('job-api').url,
        DSCHED_TEST_ADMIN_TOKEN: ADMIN_TOKEN,
      },
    },
  );
  const report = `${pytest.stdout}\n${pytest.stderr}`;
  expect(pytest.code, report).toBe(0);
  // Every test ran: none skipped, none deselected.
  expect(report).toMatch(/\b1[0-9] passed\b/);
  expect(report).not.toMatch(/skipped|deselected|xfail/);
}, 300_000);
