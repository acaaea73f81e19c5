import type { Job } from '@dsched/client';
import type { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { collect, parseCount, parseDuration, parseTime } from '../input.ts';
import { cell, formatTime, table } from '../output.ts';
import { type Runtime, sleep } from '../runtime.ts';
import { jobDetail, jobRows } from '../views.ts';
import { type Act, eachId } from './act.ts';

// dsched run list|get|watch|cancel|retry: jobs, live and archived alike.

const TERMINAL = new Set(['succeeded', 'dead', 'cancelled']);

/** One line per change a watcher sees. */
function changeLine(job: Job, out: Runtime['out']): string {
  const extra = [
    job.lastStatus !== undefined ? `status ${job.lastStatus}` : '',
    job.lastError ? `error ${job.lastError}` : '',
    job.cancelRequested ? 'cancel requested' : '',
  ].filter(Boolean);
  return `${formatTime(new Date().toISOString(), { ...out, time: 'iso' })}  ${job.id}  ${job.state}  attempt ${job.attempt}/${job.maxAttempts}${extra.length ? `  ${extra.join(', ')}` : ''}`;
}

const fingerprint = (j: Job) => `${j.state}|${j.attempt}|${j.lastStatus ?? ''}|${j.cancelRequested ? 1 : 0}`;

interface ListFlags {
  task?: string;
  state?: string;
  since?: string;
  until?: string;
  tag?: string[];
  limit?: string;
  pageToken?: string;
  all?: boolean;
  follow?: boolean;
  interval: string;
}

export function registerRunCommands(program: Command, act: Act): void {
  const run = program.command('run').description('runs (jobs): one occurrence of a task, with its attempts');

  run
    .command('list')
    .description('runs newest first: a task’s (--task) or all the tenant’s, live and archived')
    .option('--task <id>', 'only this task’s runs')
    .option('--state <state>', 'pending, running, succeeded, failed, dead or cancelled (without --task)')
    .option('--since <time>', 'scheduled at or after: RFC 3339 or a duration ago (default 7d)')
    .option('--until <time>', 'scheduled before: RFC 3339, now, or a duration ago (default now)')
    .option('--tag <key:value>', 'only runs with this tag (repeatable: all must match)', collect)
    .option('--limit <n>', 'page size (default 50, at most 500)')
    .option('--page-token <token>', 'start at this page')
    .option('--all', 'walk every page')
    .option('--follow', 'keep watching: print runs as they appear or change, until ^C')
    .option('--interval <duration>', 'how often --follow polls', '1s')
    .action(
      act(async (rt: Runtime, opts: ListFlags) => {
        const client = rt.client();
        const now = rt.out.now();
        const range = {
          ...(opts.since ? { from: parseTime(opts.since, '--since', now) } : {}),
          ...(opts.until ? { to: parseTime(opts.until, '--until', now) } : {}),
        };
        const limit = opts.limit ? { limit: parseCount(opts.limit, '--limit') } : {};
        const state = opts.state ? { state: opts.state as never } : {};
        const tag = opts.tag ? { tag: opts.tag } : {};
        const page = (pageToken?: string, to?: string) =>
          opts.task
            ? client
                .runsPage(opts.task, {
                  ...range,
                  ...tag,
                  ...(to ? { to } : {}),
                  ...limit,
                  ...(pageToken ? { pageToken } : {}),
                })
                .then((p) => ({ items: p.runs, nextPageToken: p.nextPageToken, body: p as unknown }))
            : client
                .jobsPage({
                  ...range,
                  ...tag,
                  ...(to ? { to } : {}),
                  ...state,
                  ...limit,
                  ...(pageToken ? { pageToken } : {}),
                })
                .then((p) => ({ items: p.jobs, nextPageToken: p.nextPageToken, body: p as unknown }));
        const key = opts.task ? 'runs' : 'jobs';
        if (opts.follow) return follow(rt, opts, (to) => page(undefined, to).then((p) => p.items));
        if (opts.all) {
          const items: Job[] = [];
          let token = opts.pageToken;
          do {
            const p = await page(token);
            items.push(...p.items);
            token = p.nextPageToken;
            rt.progress.show(`${items.length} runs…`);
          } while (token);
          rt.print({ body: { [key]: items }, items, table: () => jobRows(items, rt.out) });
          return;
        }
        const p = await page(opts.pageToken);
        rt.print({
          body: p.body,
          items: p.items,
          table: () =>
            jobRows(p.items, rt.out) + (p.nextPageToken ? `\n\nmore: --page-token ${p.nextPageToken}` : ''),
        });
      }),
    );

  run
    .command('get <id>')
    .description('one run with its attempts, newest first')
    .action(
      act(async (rt: Runtime, id: string) => {
        const job = await rt.client().getJob(id);
        rt.print({ body: job, table: () => jobDetail(job, rt.out) });
      }),
    );

  run
    .command('watch <id>')
    .description(
      'print a run’s state as it changes until it finishes (exit 0 succeeded, 1 dead or cancelled)',
    )
    .option('--interval <duration>', 'how often to poll', '500ms')
    .action(
      act(async (rt: Runtime, id: string, opts: { interval: string }) => {
        const every = parseDuration(opts.interval, '--interval');
        const client = rt.client();
        const started = Date.now();
        let last = '';
        for (;;) {
          const job = await client.getJob(id);
          if (fingerprint(job) !== last) {
            last = fingerprint(job);
            if (rt.out.format === 'table') rt.print({ body: job, table: () => changeLine(job, rt.out) });
            else if (rt.out.format === 'jsonl') rt.print({ body: job, table: () => '' });
            if (TERMINAL.has(job.state)) {
              if (rt.out.format === 'json' || rt.out.format === 'yaml')
                rt.print({ body: job, table: () => '' });
              return job.state === 'succeeded' ? EXIT.ok : EXIT.error;
            }
          }
          rt.progress.show(
            `waiting for ${job.state} to change… ${Math.round((Date.now() - started) / 1000)} s`,
          );
          await sleep(every, rt.io.signal);
          if (rt.io.signal.aborted) {
            rt.progress.clear();
            return EXIT.interrupted;
          }
        }
      }),
    );

  for (const action of ['cancel', 'retry'] as const) {
    run
      .command(`${action} <id...>`)
      .description(
        action === 'cancel'
          ? 'cancel runs: a pending one at once, a running one is aborted'
          : 'redrive dead runs from the DLQ',
      )
      .action(
        act(async (rt: Runtime, ids: string[]) =>
          eachId(rt, ids, async (id) => {
            const job =
              action === 'cancel' ? await rt.client().cancelJob(id) : await rt.client().retryJob(id);
            return {
              body: job,
              table: () => `${job.id}  ${job.state}${job.cancelRequested ? ' (cancel requested)' : ''}`,
            };
          }),
        ),
      );
  }
}

/** `run list --follow`: polls the newest page and prints what is new or changed, until ^C. */
async function follow(rt: Runtime, opts: ListFlags, newest: (to: string) => Promise<Job[]>): Promise<number> {
  const every = parseDuration(opts.interval, '--interval');
  const seen = new Map<string, string>();
  let header = rt.out.format === 'table';
  while (!rt.io.signal.aborted) {
    // Runs scheduled a little ahead count too: the scheduler makes them before they are due.
    const jobs = await newest(new Date(Date.now() + 3_600_000).toISOString());
    const changed = jobs.filter((j) => seen.get(j.id) !== fingerprint(j)).reverse();
    for (const j of changed) seen.set(j.id, fingerprint(j));
    if (changed.length > 0) {
      if (rt.out.format === 'table') {
        const text = table(
          ['id', 'task', 'state', 'attempt', 'scheduled for', 'status'],
          changed.map((j) => [
            j.id,
            cell(j.taskId),
            j.state,
            `${j.attempt}/${j.maxAttempts}`,
            formatTime(j.scheduledFor, rt.out),
            cell(j.lastStatus),
          ]),
        );
        rt.print({ body: undefined, table: () => (header ? text : text.split('\n').slice(1).join('\n')) });
        header = false;
      } else {
        rt.print({ body: changed, items: changed, table: () => '' });
      }
    }
    await sleep(every, rt.io.signal);
  }
  rt.progress.clear();
  return EXIT.ok;
}
