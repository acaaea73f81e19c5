// pnpm bench console [--tasks N] [--rounds N]
//
// The web console's weight and first load: builds apps/console (JS+CSS gzip bytes, as job-api
// serves them), starts task-api and job-api on a fresh database with N tasks (default 1,000),
// and opens the Tasks screen in Debian's Chromium (cold: a new browser context each round).
// Reports the median time from navigation until the list shows every task's count and its first
// 25 rows, and until those rows' next fire times (25 preview calls) have arrived.
import { createTestKeyspace } from '@dsched/testkit/cassandra';
import { startFleet } from '@dsched/testkit/fleet';
import { createTestDatabase } from '@dsched/testkit/mysql';
import { freePort } from '@dsched/testkit/ports';
import { chromium } from 'playwright-core';
import { buildConsole } from '../apps/console/scripts/build.ts';
import { ensureStack, machine, median } from './_stack.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TASKS = arg('tasks', 1000);
const ROUNDS = arg('rounds', 3);
const ADMIN = 'bench-console-admin-token-0123';

const weights = await buildConsole();
const gzip = weights.filter((w) => w.file !== 'index.html').reduce((n, w) => n + w.gzipBytes, 0);
await ensureStack({
  DATABASE_URL: 'mysql://dsched:dsched@127.0.0.1:3306/dsched',
  CASSANDRA_KEYSPACE: 'dsched',
});
const [db, ks] = await Promise.all([
  createTestDatabase(import.meta.url),
  createTestKeyspace(import.meta.url),
]);
const [taskPort, jobPort] = [await freePort(), await freePort()];
const taskApi = `http://127.0.0.1:${taskPort}`;
const jobApi = `http://127.0.0.1:${jobPort}`;
const fleet = await startFleet(
  {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN,
    TASK_API_CORS_ORIGINS: jobApi,
    CONSOLE_TASK_API_URL: taskApi,
  },
  ['task-api', 'job-api'],
  { ports: { 'task-api': taskPort, 'job-api': jobPort } },
);
const browser = await chromium.launch({
  executablePath: process.env.DSCHED_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const tenant = (await (
    await fetch(`${taskApi}/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench-console', maxTasks: TASKS + 10 }),
    })
  ).json()) as { apiKey: string };
  const queue = Array.from({ length: TASKS }, (_, i) => i);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const res = await fetch(`${taskApi}/v1/tasks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `task ${String(i).padStart(4, '0')}`,
            schedule: { type: 'cron', expression: `${i % 60} ${i % 24} * * *`, timezone: 'Europe/Berlin' },
            target: { url: 'http://127.0.0.1:9/hook' },
          }),
        });
        if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      }
    }),
  );
  const createMs = performance.now() - t0;

  const rounds: { list: number; fires: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const session = JSON.stringify({ apiKey: tenant.apiKey, taskApi });
    await context.addInitScript(
      `sessionStorage.setItem('dsched.console.session', ${JSON.stringify(session)})`,
    );
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(`${jobApi}/ui/#/tasks`);
    await page.getByText(`${TASKS} tasks`).waitFor({ timeout: 120_000 });
    await page.locator('tbody tr').nth(24).waitFor();
    const list = performance.now() - start;
    await page.waitForFunction('document.querySelectorAll("ol.fires").length === 25', undefined, {
      timeout: 120_000,
    });
    rounds.push({ list, fires: performance.now() - start });
    await context.close();
  }
  const list = median(rounds.map((r) => r.list));
  const fires = median(rounds.map((r) => r.fires));
  console.log(`console: ${TASKS} tasks (made in ${(createMs / 1000).toFixed(1)} s), ${ROUNDS} cold loads`);
  console.log(`machine: ${machine()}`);
  for (const w of weights)
    console.log(
      `${w.file.padEnd(12)} ${String(w.bytes).padStart(7)} B  ${String(w.gzipBytes).padStart(6)} B gzip`,
    );
  console.log(`JS+CSS gzip                ${gzip} B`);
  console.log(`Tasks: list and count      ${list.toFixed(0)} ms (median)`);
  console.log(`Tasks: + next fires shown  ${fires.toFixed(0)} ms (median)`);
  console.log(
    JSON.stringify({
      bench: 'console',
      metrics: {
        js_css_gzip_bytes: gzip,
        tasks: TASKS,
        tasks_list_ms: Math.round(list),
        tasks_fires_ms: Math.round(fires),
      },
    }),
  );
} finally {
  await browser.close();
  await fleet.stop();
  await db.close();
  await ks.close();
}
