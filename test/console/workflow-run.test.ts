import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { useConsole } from './harness.ts';

// A workflow run in the console, in a real Chromium against the six services (harness.ts): its
// timeline on a real run (a retried node, the critical path), live updates without a reload (and
// none once the run ends or the tab is hidden), and a 5,000-node run's DAG drawn, timed.

const c = useConsole(import.meta.url, async (call) => {
  // `/slow-flaky`: 300 ms, and a 500 on the first attempt; `/ok`: at once.
  if (call.path.startsWith('/slow-flaky')) {
    await sleep(300);
    return { status: call.attempt === 1 ? 500 : 200, body: 'ok' };
  }
  return { status: 200, body: 'ok' };
});
let run: (body: unknown) => Promise<{ id: string }>;
beforeAll(async () => {
  run = (body) => c.api(c.taskApi, '/v1/workflows', { method: 'POST', body });
  await c.signIn();
});

const ended = async (id: string) => {
  for (let i = 0; i < 300; i++) {
    const w = await c.api(c.taskApi, `/v1/workflows/${id}`);
    if (w.state !== 'running') return w;
    await sleep(100);
  }
  throw new Error(`run ${id} did not end`);
};

/** The requests the page makes for a path while `during` runs. */
async function requestsFor(path: string, during: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const on = (r: { url(): string }) => {
    if (new URL(r.url()).pathname === path) seen.push(r.url());
  };
  c.page.on('request', on);
  try {
    await during();
  } finally {
    c.page.off('request', on);
  }
  return seen;
}

it('shows a finished run’s timeline: each node’s wait and attempts on one axis, a retry, the critical path', async () => {
  const ok = { url: `${c.target.url}/ok` };
  const { id } = await run({
    name: 'timeline',
    nodes: [
      { id: 'a', target: ok },
      {
        id: 'b',
        target: { url: `${c.target.url}/slow-flaky` },
        dependsOn: ['a'],
        retry: { maxAttempts: 3, initialBackoffMs: 200, maxBackoffMs: 200 },
      },
      { id: 'c', target: ok, dependsOn: ['a'] },
      { id: 'd', target: ok, dependsOn: ['b', 'c'] },
    ],
  });
  expect((await ended(id)).state).toBe('succeeded');
  await c.page.goto(`${c.jobApi}/ui/#/workflows/${id}`);
  const rows = c.page.locator('.tl-row');
  await expect.poll(() => rows.count()).toBe(4);
  // In level order; b's two attempts, the first failed, and a wait before each.
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).toEqual([
    'a',
    'b',
    'c',
    'd',
  ]);
  const b = c.page.locator('.tl-row[data-node="b"]');
  await expect.poll(() => b.locator('.tl-run').count()).toBe(2);
  expect(await b.locator('.tl-run.tl-fail').getAttribute('data-attempt')).toBe('1');
  expect(await b.locator('.tl-wait').count()).toBe(2);
  await expect.poll(() => c.page.locator('.tl-row[data-node="d"] .tl-run:not(.tl-fail)').count()).toBe(1);
  // b (two slow attempts) held d up, not c: the critical path is a → b → d.
  expect(
    await c.page
      .locator('.tl-row.critical')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-node'))),
  ).toEqual(['a', 'b', 'd']);
  expect(await c.page.locator('.tl-scroll').getAttribute('aria-label')).toMatch(
    /critical path is a → b → d$/,
  );
  // The words a screen reader reads for b: two attempts, on the critical path.
  expect(await b.locator('.sr-only').innerText()).toMatch(/in 2 attempt\(s\).*on the critical path$/);
  await expect
    .poll(() => c.page.locator('canvas.dag').getAttribute('aria-label'))
    .toMatch(/: 4 nodes \(4 succeeded\), 4 dependencies, in 3 levels$/);
  await c.checkScreen('workflow-timeline');
});

it('follows a running run and the runs list live, without a reload; stops once the run ended or the tab is hidden', async () => {
  const { id } = await run({
    name: 'live',
    nodes: [
      { id: 'approve', kind: 'wait', wait: { timeoutS: 3600 } },
      { id: 'ship', target: { url: `${c.target.url}/ok` }, dependsOn: ['approve'] },
    ],
  });
  await c.page.goto(`${c.jobApi}/ui/#/workflows/${id}`);
  const approve = c.page.locator('.tl-row[data-node="approve"] .badge');
  await expect.poll(() => approve.innerText()).toBe('pending');
  await c.page.evaluate('window.__sameDocument = true');
  // The test signals the node through the API, behind the page's back: the page follows.
  await c.api(c.taskApi, `/v1/workflows/${id}/nodes/approve/signal`, { method: 'POST', body: {} });
  await expect.poll(() => approve.innerText(), { timeout: 30_000 }).toBe('succeeded');
  await c.page.locator('h2 .s-succeeded').waitFor({ timeout: 30_000 });
  await expect.poll(() => c.page.locator('.tl-row[data-node="ship"] .badge').innerText()).toBe('succeeded');
  expect(await c.page.evaluate('window.__sameDocument')).toBe(true);
  // Ended: nothing more is asked for it.
  const afterEnd = await requestsFor(`/v1/workflows/${id}`, () => sleep(4000));
  expect(afterEnd).toEqual([]);

  // A hidden tab asks nothing; shown again, it asks at once.
  const waiting = await run({ name: 'hidden', nodes: [{ id: 'w', kind: 'wait', wait: { timeoutS: 3600 } }] });
  await c.page.goto(`${c.jobApi}/ui/#/workflows/${waiting.id}`);
  await c.page.locator('.tl-row[data-node="w"]').waitFor();
  const visibility = (state: string) =>
    c.page.evaluate(
      `Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
       document.dispatchEvent(new Event('visibilitychange'))`,
    );
  await visibility('hidden');
  // (A request already on its way when the tab was hidden is let through first.)
  await sleep(300);
  const whileHidden = await requestsFor(`/v1/workflows/${waiting.id}`, () => sleep(4000));
  expect(whileHidden).toEqual([]);
  const shown = await requestsFor(`/v1/workflows/${waiting.id}`, async () => {
    await visibility('visible');
    await sleep(500);
  });
  expect(shown.length).toBeGreaterThanOrEqual(1);
  await c.api(c.taskApi, `/v1/workflows/${waiting.id}/cancel`, { method: 'POST' });

  // The runs list: a run submitted behind the page's back appears without a reload.
  await c.nav('Workflows').click();
  const list = c.page.locator('table.workflow-runs');
  await list.getByRole('link', { name: 'hidden' }).waitFor();
  await run({ name: 'arrives-live', nodes: [{ id: 'only', target: { url: `${c.target.url}/ok` } }] });
  await list.getByRole('link', { name: 'arrives-live' }).waitFor({ timeout: 30_000 });
  expect(await c.page.evaluate('window.__sameDocument')).toBe(true);
});

it('draws a 5,000-node run’s DAG in under 2 s, pans and zooms it, and windows its timeline', async () => {
  // 50 levels of 100: each node after the first level depends on two of the level before (9,800
  // dependencies). The first level waits for a signal, so nothing is called.
  const name = (level: number, i: number) =>
    `L${String(level).padStart(2, '0')}-${String(i).padStart(3, '0')}`;
  const nodes = [];
  for (let level = 0; level < 50; level++)
    for (let i = 0; i < 100; i++)
      nodes.push(
        level === 0
          ? { id: name(0, i), kind: 'wait', wait: { timeoutS: 3600 } }
          : {
              id: name(level, i),
              target: { url: `${c.target.url}/ok` },
              dependsOn: [name(level - 1, i), name(level - 1, (i + 1) % 100)],
            },
      );
  const { id } = await run({ name: 'wide', nodes });
  await c.page.goto(`${c.jobApi}/ui/#/overview`);
  await c.page.getByRole('heading', { name: 'Overview' }).waitFor();
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  // From the route's change to the canvas drawn: the summary, the graph (5,000 nodes, 9,800
  // dependencies) through task-api, the layout and the drawing.
  const started = Date.now();
  await c.page.evaluate(`location.hash = '#/workflows/${id}'`);
  await c.page.locator('canvas.dag[data-drawn="5000"]').waitFor({ timeout: 30_000 });
  const ms = Date.now() - started;
  const drawMs = Number(await c.page.locator('canvas.dag').getAttribute('data-draw-ms'));
  console.log(
    `5,000-node DAG: drawn ${ms} ms after the route changed (layout and draw ${drawMs} ms); load ${load}`,
  );
  // The page's own work (layout and a full drawing) is CPU alone: held to 2 s always. The whole
  // (two requests through task-api and MySQL, JSON, layout, drawing) is the check, held
  // to 2 s when the machine is not oversubscribed (1-minute load under its 2 cores); on a machine
  // shared with other test suites it is printed, not asserted (a figure of the load then).
  expect(drawMs).toBeLessThan(2000);
  if (Number(load.split(' ')[0]) < 2) expect(ms).toBeLessThan(2000);
  const dag = c.page.locator('canvas.dag');
  expect(await dag.getAttribute('aria-label')).toMatch(
    /: 5000 nodes \(100 pending, 4900 waiting\), 9800 dependencies, in 50 levels$/,
  );
  // Something was drawn: many pixels that are not the background.
  const inked = await c.page.evaluate<number>(`(() => {
    const canvas = document.querySelector('canvas.dag');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 700) n++;
    return n;
  })()`);
  expect(inked).toBeGreaterThan(20_000);
  // Fit shows every node; zoomed in, only those on screen are drawn; dragged, others are.
  expect(await dag.getAttribute('data-shown')).toBe('5000');
  for (let i = 0; i < 6; i++) await c.page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(async () => Number(await dag.getAttribute('data-shown'))).toBeLessThan(500);
  // Settled: the last click drawn.
  await expect
    .poll(async () => {
      const a = await dag.getAttribute('data-view');
      await sleep(300);
      return a === (await dag.getAttribute('data-view'));
    })
    .toBe(true);
  const before = await dag.getAttribute('data-shown');
  const view = await dag.getAttribute('data-view');
  const box = (await dag.boundingBox())!;
  await c.page.mouse.move(box.x + 400, box.y + 200);
  await c.page.mouse.down();
  await c.page.mouse.move(box.x + 100, box.y + 100, { steps: 5 });
  await c.page.mouse.up();
  // Dragged by (-300, -100): the view moved by as much, at the same zoom.
  const [x0, y0, s0] = view!.split(',');
  await expect
    .poll(() => dag.getAttribute('data-view'))
    .toBe(`${Number(x0) - 300},${Number(y0) - 100},${s0}`);
  await c.page.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(() => dag.getAttribute('data-shown')).toBe('5000');
  expect(before).not.toBe('5000');
  // The timeline keeps about 25 of the 5,000 rows in the page; scrolled to the end, the last ones.
  const rows = c.page.locator('.tl-row');
  expect(await rows.count()).toBeLessThanOrEqual(25);
  await c.page.locator('.tl-scroll').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await c.page.locator('.tl-row[data-node="L49-099"]').waitFor();
  expect(await rows.count()).toBeLessThanOrEqual(25);
  await c.page.locator('.tl-scroll').evaluate((el) => {
    el.scrollTop = 0;
  });
  await c.checkScreen('workflow-5000');
  // Phone width: the run's page still lays out without scrolling the whole page sideways.
  await c.page.setViewportSize({ width: 390, height: 800 });
  await c.page.locator('.tl-row[data-node="L00-000"]').waitFor();
  expect(
    await c.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'),
  ).toBeLessThanOrEqual(0);
  await c.page.setViewportSize({ width: 1280, height: 800 });
  await c.api(c.taskApi, `/v1/workflows/${id}/cancel`, { method: 'POST' });
});
