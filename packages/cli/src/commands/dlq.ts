import { createInterface } from 'node:readline/promises';
import type { Job } from '@dsched/client';
import type { Command } from 'commander';
import { UsageError } from '../exit-codes.ts';
import { collect, parseCount } from '../input.ts';
import type { Runtime } from '../runtime.ts';
import { jobRows } from '../views.ts';
import type { Act } from './act.ts';

// dsched dlq list | redrive (--id ... | --task ...) [--dry-run] [--yes]

const BULK_IDS = 1000; // POST /v1/dlq/retry takes at most this many ids per call

async function confirm(rt: Runtime, question: string): Promise<boolean> {
  if (!rt.io.stdinIsTty) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function registerDlqCommands(program: Command, act: Act): void {
  const dlq = program.command('dlq').description('the dead-letter queue');

  dlq
    .command('list')
    .description('dead runs, newest first')
    .option('--task <id>', 'only this task’s (filtered here: the DLQ is read whole)')
    .option('--tag <key:value>', 'only dead runs with this tag (repeatable: all must match)', collect)
    .option('--limit <n>', 'page size (default 50, at most 500)')
    .option('--page-token <token>', 'start at this page')
    .option('--all', 'walk every page')
    .action(
      act(
        async (
          rt: Runtime,
          opts: { task?: string; tag?: string[]; limit?: string; pageToken?: string; all?: boolean },
        ) => {
          const query = {
            ...(opts.tag ? { tag: opts.tag } : {}),
            ...(opts.limit ? { limit: parseCount(opts.limit, '--limit') } : {}),
            ...(opts.pageToken ? { pageToken: opts.pageToken } : {}),
          };
          const keep = (jobs: Job[]) => (opts.task ? jobs.filter((j) => j.taskId === opts.task) : jobs);
          if (opts.all || opts.task) {
            const jobs = keep(await rt.client().dlq(query).toArray());
            rt.print({ body: { jobs }, items: jobs, table: () => jobRows(jobs, rt.out) });
            return;
          }
          const page = await rt.client().dlqPage(query);
          rt.print({
            body: page,
            items: page.jobs,
            table: () =>
              jobRows(page.jobs, rt.out) +
              (page.nextPageToken ? `\n\nmore: --page-token ${page.nextPageToken}` : ''),
          });
        },
      ),
    );

  dlq
    .command('redrive')
    .description('send dead runs back to pending: a new attempt group, same id and Idempotency-Key')
    .option('--id <ids...>', 'these dead runs')
    .option('--task <id>', 'every dead run of this task')
    .option('--dry-run', 'show what would be redriven and change nothing')
    .option('-y, --yes', 'do not ask')
    .action(
      act(async (rt: Runtime, opts: { id?: string[]; task?: string; dryRun?: boolean; yes?: boolean }) => {
        if (!opts.id && !opts.task) throw new UsageError('give --id or --task', '--id');
        const client = rt.client();
        // The same selection the API will make: dead jobs among the ids, or the task's dead jobs.
        let chosen: Job[];
        if (opts.id) {
          chosen = [];
          for (const id of opts.id) {
            const job = await client.getJob(id);
            if (job.state !== 'dead') rt.io.stderr(`${id}: ${job.state}, not in the DLQ: left alone\n`);
            else if (!opts.task || job.taskId === opts.task) chosen.push(job);
          }
        } else {
          chosen = (await client.dlq({ limit: 500 }).toArray()).filter((j) => j.taskId === opts.task);
        }
        if (opts.dryRun) {
          rt.print({
            body: { dryRun: true, count: chosen.length, jobIds: chosen.map((j) => j.id) },
            items: chosen,
            table: () =>
              `${jobRows(chosen, rt.out)}\n\nwould redrive ${chosen.length} runs (dry run: nothing changed)`,
          });
          return;
        }
        if (chosen.length === 0) {
          rt.print({ body: { count: 0, jobIds: [] }, table: () => 'nothing to redrive' });
          return;
        }
        if (!opts.yes && !(await confirm(rt, `Redrive ${chosen.length} runs?`))) {
          throw new UsageError(
            rt.io.stdinIsTty
              ? 'not confirmed: nothing changed'
              : `refusing to redrive ${chosen.length} runs without --yes (stdin is not a terminal)`,
            '--yes',
          );
        }
        const redriven: string[] = [];
        const ids = chosen.map((j) => j.id);
        for (let i = 0; i < ids.length; i += BULK_IDS) {
          const batch = ids.slice(i, i + BULK_IDS);
          const result = await client.redrive({ jobIds: batch, ...(opts.task ? { taskId: opts.task } : {}) });
          redriven.push(...result.jobIds);
          rt.progress.show(`redriven ${redriven.length} of ${ids.length}…`);
        }
        const body = { count: redriven.length, jobIds: redriven };
        rt.print({ body, table: () => `redrove ${redriven.length} runs` });
      }),
    );
}
