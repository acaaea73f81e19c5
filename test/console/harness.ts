import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import { REPO_ROOT } from '@dsched/testkit/names';
import { freePort } from '@dsched/testkit/ports';
import { type Handler, type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { useTestStores } from '@dsched/testkit/test-stores';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildConsole } from '../../apps/console/scripts/build.ts';

// The console in a real Chromium (Debian's, driven by playwright-core, kept off the network)
// against the six services as processes, real MariaDB and Cassandra and a real loopback target.
// The page is job-api's /ui; task-api allows that origin by CORS. `checkScreen` runs axe-core (no
// serious or critical violation) and photographs the screen at 1280×800: into docs/console/ with
// UPDATE_SCREENSHOTS=1, into a temporary folder otherwise (so CI leaves the tree clean).
// Call useConsole at the top of a test file; its fields exist from the file's first hook on.

export const ADMIN_TOKEN = 'console-admin-token-0123456789';
const CHROMIUM = process.env.DSCHED_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(REPO_ROOT, 'docs/console')
    : join(tmpdir(), 'dsched-console-shots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface ConsoleHarness {
  db: ReturnType<typeof useTestStores>['db'];
  target: ScriptedTarget;
  page: Page;
  taskApi: string;
  jobApi: string;
  tenant: { id: string; apiKey: string };
  /** A call to an API as the tenant (or with `token`); the parsed body, or throws on an error. */
  // biome-ignore lint/suspicious/noExplicitAny: a test's JSON, read by its shape
  api(base: string, path: string, init?: { method?: string; body?: unknown; token?: string }): Promise<any>;
  /** axe-core on the screen as it is: no serious or critical violation; then its screenshot. */
  checkScreen(name: string, options?: { screenshot?: boolean }): Promise<void>;
  /** A link of the console's navigation. */
  nav(name: string): ReturnType<Page['getByRole']>;
  /** Signs the page in with the tenant's key and the admin token. */
  signIn(): Promise<void>;
}

export function useConsole(fileUrl: string, handler: Handler): ConsoleHarness {
  const { db, ks } = useTestStores(fileUrl);
  let target: ScriptedTarget | undefined;
  let fleet: Fleet | undefined;
  let browser: Browser | undefined;
  const h: Partial<ConsoleHarness> = { db };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [target] = await Promise.all([startScriptedTarget(handler), buildConsole()]);
    const [taskPort, jobPort] = [await freePort(), await freePort()];
    const taskApi = `http://127.0.0.1:${taskPort}`;
    const jobApi = `http://127.0.0.1:${jobPort}`;
    fleet = await startFleet(
      {
        DATABASE_URL: db.url,
        CASSANDRA_KEYSPACE: ks.keyspace,
        DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
        TASK_API_CORS_ORIGINS: jobApi,
        CONSOLE_TASK_API_URL: taskApi,
        ...FAST_LOOPS,
      },
      undefined,
      { ports: { 'task-api': taskPort, 'job-api': jobPort } },
    );
    const res = await fetch(`${taskApi}/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'console' }),
    });
    const tenant = (await res.json()) as { id: string; apiKey: string };
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Nothing but the two APIs: a request elsewhere (a CDN) fails the test.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(jobApi) || url.startsWith(taskApi)) return route.continue();
      throw new Error(`the console asked for ${url}`);
    });
    Object.assign(h, {
      target,
      page,
      taskApi,
      jobApi,
      tenant,
      async api(base: string, path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
        const r = await fetch(`${base}${path}`, {
          method: init.method ?? 'GET',
          headers: {
            authorization: `Bearer ${init.token ?? tenant.apiKey}`,
            ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        });
        const text = await r.text();
        if (!r.ok) throw new Error(`${path}: ${r.status} ${text}`);
        return text ? JSON.parse(text) : undefined;
      },
      async checkScreen(name: string, options: { screenshot?: boolean } = {}) {
        await page.addScriptTag({ path: AXE });
        // A string, run in the page (where `axe` and `document` are).
        const violations = await page.evaluate<{ id: string; impact: string; nodes: string[] }[]>(
          `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
            id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
        );
        const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious, `${name}: ${JSON.stringify(serious)}`).toEqual([]);
        if (options.screenshot !== false) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
      },
      nav(name: string) {
        return page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true });
      },
      async signIn() {
        await page.goto(`${jobApi}/ui/`);
        await page.getByLabel('Tenant API key').fill(tenant.apiKey);
        await page.getByLabel('Admin token (operator view)').fill(ADMIN_TOKEN);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await fleet?.stop();
    await target?.close();
  });

  return new Proxy(h, {
    get(_t, property) {
      const value = Reflect.get(h, property);
      if (value === undefined)
        throw new Error(`the console harness's ${String(property)} exists from beforeAll on`);
      return value;
    },
  }) as ConsoleHarness;
}
