import { insertJobs } from '@dsched/testkit/fixtures';
import { beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, useConsole } from './harness.ts';

// The console's screens in a real Chromium against the six services (harness.ts): each screen
// checked with axe-core and photographed. A run's DAG, timeline and live updates: workflow-run.test.ts.

const c = useConsole(import.meta.url, (call) => ({
  status: call.path.startsWith('/fail') ? 500 : call.path.startsWith('/gone') ? 410 : 200,
  body: 'ok',
}));
const db = c.db;
// Read when a test runs (the harness fills them in beforeAll).
const api: typeof c.api = (...args) => c.api(...args);
const checkScreen: typeof c.checkScreen = (...args) => c.checkScreen(...args);
const nav: typeof c.nav = (name) => c.nav(name);
let page: typeof c.page;
let target: typeof c.target;
let taskApi: string;
let jobApi: string;
let tenant: typeof c.tenant;
beforeAll(() => {
  ({ page, target, taskApi, jobApi, tenant } = c);
});

it('signs in, refuses a bad zone beside its field, creates the task, shows fires, runs and attempts live', async () => {
  await page.goto(`${jobApi}/ui/`);
  await expect.poll(() => page.getByLabel('task-api URL').inputValue()).toBe(taskApi);
  await checkScreen('sign-in');
  await page.getByLabel('Tenant API key').fill('not-a-key');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('not accepted by the API (401)').waitFor();
  await page.getByLabel('Tenant API key').fill(tenant.apiKey);
  await page.getByLabel('Admin token (operator view)').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  await page.getByText('in the DLQ').waitFor();
  // Photographed at the end, with something to show.
  await checkScreen('overview', { screenshot: false });

  await nav('Tasks').click();
  await page.getByRole('link', { name: 'New task' }).click();
  await page.getByLabel('Name').fill('morning report');
  await page.getByLabel('Cron expression').fill('0 9 * * 1-5');
  await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
  await page.getByLabel('URL').fill(`${target.url}/hook`);
  await page.getByRole('button', { name: 'Create task' }).click();
  // The API's detail for schedule.timezone, beside the zone's input, which is marked invalid.
  const zone = page.getByLabel('Time zone');
  await expect.poll(() => zone.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await zone.getAttribute('aria-describedby'))!
    .split(' ')
    .find((id) => id.endsWith('-err'))!;
  const issue = await page.locator(`[id="${describedBy}"]`).innerText();
  expect(issue.toLowerCase()).toMatch(/zone/);
  // From the create's 400 (not only the preview's): its details are listed by field.
  await page.getByText('The API refused 1 field: schedule.timezone').waitFor();
  await checkScreen('task-form-error');
  expect((await api(taskApi, '/v1/tasks')).tasks).toHaveLength(0);

  await zone.fill('Europe/Berlin');
  // The planner's next three fires, previewed before saving.
  await expect.poll(() => page.locator('ol.next-fires li').count()).toBe(3);
  await page.getByRole('button', { name: 'Create task' }).click();
  await page.getByRole('heading', { name: 'Upcoming' }).waitFor();
  await expect.poll(() => page.locator('ol.timeline:not(.runs) li').count()).toBe(10);
  await expect.poll(() => page.getByText('No runs yet.').count()).toBe(1);
  const [task] = (await api(taskApi, '/v1/tasks')).tasks as { id: string }[];

  // A run made behind the page's back appears without a reload (the screen polls).
  const { jobId } = (await api(taskApi, `/v1/tasks/${task!.id}/trigger`, { method: 'POST' })) as {
    jobId: string;
  };
  const runLink = page.locator('ol.runs li', { has: page.locator('.s-succeeded') }).getByRole('link');
  await runLink.waitFor({ timeout: 30_000 });
  await checkScreen('task-detail');

  await nav('Tasks').click();
  await page.getByRole('link', { name: 'morning report' }).waitFor();
  await expect.poll(() => page.locator('ol.fires li').count()).toBe(3);
  await checkScreen('tasks');

  await page.goto(`${jobApi}/ui/#/runs/${jobId}`);
  await page.getByRole('heading', { name: 'Attempts, newest first' }).waitFor();
  const row = page.locator('table.attempts tbody tr').first();
  await expect.poll(() => row.locator('td').nth(2).innerText()).toBe('200');
  await page.getByText(`Idempotency-Key: ${jobId}`).waitFor();
  await checkScreen('run-detail');

  await nav('Runs').click();
  await page.getByRole('link', { name: jobId }).waitFor();
  await checkScreen('runs');
});

it('previews the sentence and the next fires as a schedule is typed in words, and names a word it refuses', async () => {
  await nav('Tasks').click();
  await page.getByRole('link', { name: 'New task' }).click();
  await page.getByLabel('Name').fill('month end');
  await page.getByLabel('Kind').selectOption('text');
  const words = page.getByLabel('When, in words');
  await page.getByLabel('Time zone').fill('Europe/Berlin');
  await words.fill('every weekday at 9am');
  const sentence = page.locator('.preview .sentence');
  await expect.poll(() => sentence.textContent()).toBe('At 09:00, Monday through Friday, Europe/Berlin');
  await expect.poll(() => page.locator('ol.next-fires li').count()).toBe(3);
  // A word it does not understand, named beside the field as it is typed.
  await words.fill('every day at 9');
  await expect.poll(() => words.getAttribute('aria-invalid')).toBe('true');
  const errorId = (await words.getAttribute('aria-describedby'))!
    .split(' ')
    .find((id) => id.endsWith('-err'))!;
  await expect.poll(() => page.locator(`[id="${errorId}"]`).textContent()).toContain('"9" (word 4 of 4)');
  // A business calendar: the sentence says it, and the preview moves a Sunday month-end back.
  await words.fill('on the last day of every month at 18:00');
  await page.getByLabel('Holidays (country or region)').fill('DE-BE');
  await page.getByLabel('No runs on weekends').check();
  await page.getByLabel('A run on an excluded day').selectOption('previous_business_day');
  await expect
    .poll(() => sentence.textContent())
    .toBe(
      'At 18:00, on the last day of the month, Europe/Berlin, except on Saturdays and Sundays and public ' +
        'holidays in Berlin, Germany (DE-BE); a run that falls on an excluded day moves to the previous business day',
    );
  await checkScreen('task-form-words');
  await page.getByLabel('URL').fill(`${target.url}/month-end`);
  await page.getByRole('button', { name: 'Create task' }).click();
  await page.getByRole('heading', { name: 'Upcoming' }).waitFor();
  await page.getByText('on the last day of every month at 18:00').waitFor();
  const saved = (
    (await api(taskApi, '/v1/tasks')).tasks as {
      id: string;
      name: string;
      schedule: Record<string, unknown>;
    }[]
  ).find((t) => t.name === 'month end')!;
  expect(saved.schedule).toMatchObject({
    type: 'cron',
    expression: '0 18 L * *',
    timezone: 'Europe/Berlin',
    calendar: { holidays: 'DE-BE', weekends: true, onExcluded: 'previous_business_day' },
  });
  // The screens after this one count the tenant's tasks: this one goes.
  await api(taskApi, `/v1/tasks/${saved.id}`, { method: 'DELETE' });
});

it('redrives a dead-lettered job from the DLQ screen, after a confirm', async () => {
  const task = (await api(taskApi, '/v1/tasks', {
    method: 'POST',
    body: {
      name: 'always fails',
      schedule: { type: 'once', at: new Date(Date.now() + 200).toISOString() },
      target: { url: `${target.url}/fail` },
      retry: { maxAttempts: 1 },
    },
  })) as { id: string };
  await target.until(() => target.calls.some((c) => c.path === '/fail'), 30_000, 'the failing call');
  await nav('DLQ').click();
  const box = page.getByRole('checkbox', { name: /^Select dead job / });
  await box.waitFor({ timeout: 30_000 });
  await expect.poll(() => page.locator('.count').innerText()).toBe('1 dead job');
  await checkScreen('dlq');
  await box.check();
  await page.getByRole('button', { name: 'Redrive selected' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Redrove 1 job.').waitFor();
  // Redriven: the job runs again (a second call to the target) and is in the DLQ again after it.
  await target.until(
    () => target.calls.filter((c) => c.path === '/fail').length >= 2,
    30_000,
    'the redriven call',
  );
  const runs = (await api(jobApi, `/v1/tasks/${task.id}/runs`)) as { runs: { attempts: unknown[] }[] };
  expect(runs.runs[0]!.attempts.length).toBeGreaterThanOrEqual(1);

  // By the error's text: a bulk operation on the server (the text, and the range the matches span).
  const gone = await api(taskApi, '/v1/tasks', {
    method: 'POST',
    body: {
      name: 'gone',
      schedule: { type: 'once', at: new Date(Date.now() + 200).toISOString() },
      target: { url: `${target.url}/gone` },
      retry: { maxAttempts: 1 },
    },
  });
  await target.until(() => target.calls.some((c) => c.path === '/gone'), 30_000, 'the gone call');
  await page.goto(`${jobApi}/ui/#/dlq?q=http%20410`);
  await expect.poll(() => page.locator('.count').innerText(), { timeout: 30_000 }).toBe('1 dead job');
  const failCalls = target.calls.filter((c) => c.path === '/fail').length;
  await page.getByRole('button', { name: 'Redrive all matching' }).click();
  const dialog = page.getByRole('dialog', { name: /Redrive all 1 matching\?/ });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('heading', { name: /^Operation / }).waitFor();
  await page.getByText('1 of 1 done').waitFor({ timeout: 30_000 });
  expect(await page.locator('dl.facts').innerText()).toMatch(
    /state dead, from .*, error contains "http 410"/,
  );
  await target.until(
    () => target.calls.filter((c) => c.path === '/gone').length >= 2,
    30_000,
    'the gone call, redriven',
  );
  // The dead job of another error was not redriven by it.
  expect(target.calls.filter((c) => c.path === '/fail').length).toBe(failCalls);
  // The screens after this one count the tenant's tasks: this one goes.
  await api(taskApi, `/v1/tasks/${gone.id}`, { method: 'DELETE' });
});

it('cancels every run a tag filter matches as one bulk operation, and follows its progress', async () => {
  // Due in an hour (no executor takes them): 40 tagged, 5 of another tag left alone.
  const later = (i: number) => new Date(Date.now() + 3600_000 + i * 1000);
  const spec = (i: number, team: string) => ({
    tenantId: tenant.id,
    taskId: null,
    scheduledFor: later(i),
    state: 'pending' as const,
    tags: { team },
  });
  await insertJobs(db.pool, [
    ...Array.from({ length: 40 }, (_, i) => spec(i, 'bulk')),
    ...Array.from({ length: 5 }, (_, i) => spec(i, 'keep')),
  ]);
  // The list's range ends at `to` (local time in the form), two hours ahead so the jobs are in it.
  const until = new Date(Date.now() + 2 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${until.getFullYear()}-${pad(until.getMonth() + 1)}-${pad(until.getDate())}T${pad(until.getHours())}:${pad(until.getMinutes())}`;
  await page.goto(`${jobApi}/ui/#/runs?tag=team:bulk&to=${local}`);
  await expect.poll(() => page.locator('tbody tr').count()).toBe(40);
  await page.getByRole('button', { name: 'Cancel all matching' }).click();
  const dialog = page.getByRole('dialog');
  await expect.poll(() => dialog.innerText()).toMatch(/Cancel all 40 matching\?/);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  // The operation's page, live: the reconciler's batches move it to the end without a reload.
  await page.getByRole('heading', { name: /^Operation / }).waitFor();
  await page.locator('h2 .s-succeeded').waitFor({ timeout: 30_000 });
  await page.getByText('40 of 40 done').waitFor();
  await checkScreen('operation');
  await nav('Operations').click();
  await page.locator('table.operations tbody tr').first().waitFor();
  expect(await page.locator('table.operations tbody tr td:nth-child(3)').first().innerText()).toMatch(
    /^team:bulk, to /,
  );
  await checkScreen('operations');
  const to = `&to=${encodeURIComponent(until.toISOString())}`;
  const runs = (await api(jobApi, `/v1/jobs?tag=team:keep&state=pending${to}`)) as { jobs: unknown[] };
  expect(runs.jobs).toHaveLength(5);
  const cancelled = (await api(jobApi, `/v1/jobs?tag=team:bulk&state=cancelled&limit=100${to}`)) as {
    jobs: unknown[];
  };
  expect(cancelled.jobs).toHaveLength(40);
});

it('shows a workflow and the operator screens, accessible too', async () => {
  const wf = (await api(taskApi, '/v1/workflows', {
    method: 'POST',
    body: {
      name: 'etl',
      tags: { team: 'data' },
      nodes: [
        { id: 'extract', target: { url: `${target.url}/ok` } },
        { id: 'load', target: { url: `${target.url}/ok` }, dependsOn: ['extract'] },
      ],
    },
  })) as { id: string };
  await page.goto(`${jobApi}/ui/#/workflows/${wf.id}`);
  await page.getByRole('heading', { name: /etl/ }).waitFor();
  // Live: the page follows the workflow to its end without a reload.
  await page.locator('h2 .s-succeeded').waitFor({ timeout: 30_000 });
  await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
  // Drawn: two nodes and the dependency between them, both succeeded.
  await expect
    .poll(() => page.locator('canvas.dag').getAttribute('aria-label'))
    .toMatch(/: 2 nodes \(2 succeeded\), 1 dependencies/);
  await checkScreen('workflow');

  await nav('Overview').click();
  await page.getByText('runs succeeded in the last hour').waitFor();
  await expect.poll(() => page.locator('.tile strong').first().innerText()).toBe('2');
  await checkScreen('overview');

  // A wait node: its kind and signal URL shown, and signalled from the screen.
  const approval = (await api(taskApi, '/v1/workflows', {
    method: 'POST',
    body: {
      name: 'approval',
      nodes: [
        { id: 'approve', kind: 'wait', wait: { timeoutS: 3600 } },
        { id: 'ship', target: { url: `${target.url}/ok` }, dependsOn: ['approve'] },
      ],
    },
  })) as { id: string };
  await page.goto(`${jobApi}/ui/#/workflows/${approval.id}`);
  await page.getByRole('heading', { name: /approval/ }).waitFor();
  await expect.poll(() => page.locator('.node-kind').first().innerText()).toMatch(/^wait until /);
  expect(await page.locator('code.signal-url').innerText()).toMatch(
    new RegExp(`/v1/workflows/${approval.id}/nodes/approve/signal/sig_[A-Za-z0-9_-]{43}$`),
  );
  await page.getByRole('button', { name: 'Signal' }).click();
  await page.locator('h2 .s-succeeded').waitFor({ timeout: 30_000 });
  expect(await page.locator('code.signal-url').count()).toBe(0);

  // A sleep node and a map node say what they are, the map over which parent and its items made.
  const kinds = (await api(taskApi, '/v1/workflows', {
    method: 'POST',
    body: {
      name: 'kinds',
      nodes: [
        { id: 'nap', kind: 'sleep', sleep: { for: '1h' } },
        { id: 'p', target: { url: `${target.url}/ok` } },
        {
          id: 'rows',
          kind: 'map',
          map: { over: 'p', target: { url: `${target.url}/ok` } },
          dependsOn: ['p'],
        },
      ],
    },
  })) as { id: string };
  await page.goto(`${jobApi}/ui/#/workflows/${kinds.id}`);
  await page.getByRole('heading', { name: /kinds/ }).waitFor();
  await expect
    .poll(() => page.locator('.node-kind').allInnerTexts())
    .toEqual([expect.stringMatching(/^sleep until /), expect.stringMatching(/^map over p: /)]);

  await nav('Tenants').click();
  await page.getByLabel('Tenant id').fill(tenant.id);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('heading', { name: /console/ }).waitFor();
  await checkScreen('tenants');

  // Phone width: the page still lays out (no horizontal scroll of the whole page).
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${jobApi}/ui/#/tasks`);
  await page.getByRole('link', { name: 'morning report' }).waitFor();
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The runs list, filtered by a tag typed into its form: the filter goes into the URL (a view to
  // save or share), the untagged run stays out; the tagged run's node jobs carry the tag to Runs.
  await api(taskApi, '/v1/workflows', {
    method: 'POST',
    body: { name: 'untagged', nodes: [{ id: 'only', target: { url: `${target.url}/ok` } }] },
  });
  await nav('Workflows').click();
  const runsTable = page.locator('table.workflow-runs');
  await runsTable.getByRole('link', { name: 'untagged' }).waitFor();
  await runsTable.getByRole('link', { name: 'etl' }).waitFor();
  await page.getByRole('form', { name: 'Filter runs' }).getByLabel('Tags').fill('team:data');
  await page.getByRole('form', { name: 'Filter runs' }).getByLabel('Tags').press('Tab');
  await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/workflows?tag=team%3Adata');
  await expect.poll(() => runsTable.getByRole('link', { name: 'untagged' }).count()).toBe(0);
  await runsTable.getByRole('link', { name: 'etl' }).waitFor();
  expect(await runsTable.locator('tbody tr').count()).toBe(1);
  await expect.poll(() => runsTable.locator('tbody tr td').nth(2).innerText()).toBe('team:data');
  await checkScreen('workflows');
  // Runs by the same tag: the etl run's two node jobs, none of the other runs or tasks.
  await page.goto(`${jobApi}/ui/#/runs?tag=team:data`);
  await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
  expect(await page.locator('tbody tr td:nth-child(4)').allInnerTexts()).toEqual(['team:data', 'team:data']);
  await page.goto(`${jobApi}/ui/#/runs`);
  await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(3);
});

it('filters tasks by tag and pauses every task the tags match as one bulk operation', async () => {
  const make = (name: string, team: string) =>
    api(taskApi, '/v1/tasks', {
      method: 'POST',
      body: {
        name,
        schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' },
        target: { url: `${target.url}/ok` },
        tags: { team },
      },
    }) as Promise<{ id: string }>;
  const ops = await Promise.all([make('ops one', 'ops'), make('ops two', 'ops'), make('ops three', 'ops')]);
  const other = await make('billing run', 'billing');
  // The list's answer is held until the tags are typed: the screen's render when it arrives must
  // not take back what was typed (a field fed only from the URL did, on a slow answer).
  let answer!: () => void;
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const taskList = (url: URL) => url.pathname.endsWith('/v1/tasks');
  await page.route(taskList, async (route) => {
    await held;
    await route.continue();
  });
  await nav('Tasks').click();
  // No tags, no "all matching": a bulk operation needs a filter the server knows.
  expect(await page.getByRole('button', { name: 'Pause all matching' }).isDisabled()).toBe(true);
  await page.getByLabel('Tags').fill('team:ops');
  answer();
  await page.getByRole('link', { name: 'billing run' }).waitFor();
  await page.unroute(taskList);
  await page.getByLabel('Tags').press('Tab');
  await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/tasks?tag=team%3Aops');
  await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
  await page.getByRole('link', { name: 'billing run' }).waitFor({ state: 'detached' });
  await checkScreen('tasks-tagged');
  await page.getByRole('button', { name: 'Pause all matching' }).click();
  const dialog = page.getByRole('dialog');
  await expect.poll(() => dialog.innerText()).toMatch(/Pause all 3 matching\?/);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('heading', { name: /^Operation / }).waitFor();
  await page.getByText('3 of 3 done').waitFor({ timeout: 30_000 });
  for (const t of ops) expect((await api(taskApi, `/v1/tasks/${t.id}`)).state).toBe('paused');
  expect((await api(taskApi, `/v1/tasks/${other.id}`)).state).toBe('active');
});
