import type { BulkOperation, StartOperationRequest } from '@dsched/client';
import { type Command, Option } from 'commander';
import { EXIT, UsageError } from '../exit-codes.ts';
import { collect, parseCount, parseDuration, parseTime } from '../input.ts';
import { cell, fields, formatTime, table } from '../output.ts';
import { type Runtime, sleep } from '../runtime.ts';
import type { Act } from './act.ts';

// dsched operation start|list|get|watch|cancel: bulk actions by filter, carried out by the server
// in batches (docs/bulk-operations.md). `dsched ops` is the same.

const ACTIONS = ['cancel', 'pause', 'resume', 'redrive', 'retry'] as const;
const WHAT: Record<string, string> = {
  cancel: 'pending or running runs to cancel',
  pause: 'tasks to pause',
  resume: 'tasks to resume',
  redrive: 'dead runs to redrive',
  retry: 'runs waiting out a retry backoff to run now',
};

interface StartOptions {
  task?: string;
  tag?: string[];
  state?: 'pending' | 'running' | 'dead';
  since?: string;
  until?: string;
  errorContains?: string;
  dryRun?: boolean;
  watch?: boolean;
  interval: string;
}

function progressLine(op: BulkOperation): string {
  const pct = op.matched > 0 ? ` (${Math.floor((100 * op.done) / op.matched)}%)` : '';
  const cancel = op.cancelRequested && op.state === 'running' ? ', cancel asked' : '';
  return `${op.state}  ${op.done} of ${op.matched} done${pct}, ${op.failed} failed${cancel}`;
}

function filterText(op: BulkOperation): string {
  const f = op.filter;
  const parts = [
    ...(f.taskId ? [`task ${f.taskId}`] : []),
    ...(f.tag ?? []).map((t) => `tag ${t}`),
    ...(f.state ? [`state ${f.state}`] : []),
    ...(f.from ? [`from ${f.from}`] : []),
    ...(f.to ? [`to ${f.to}`] : []),
    ...(f.errorContains ? [`error contains "${f.errorContains}"`] : []),
  ];
  return parts.join(', ');
}

function operationDetail(op: BulkOperation, rt: Runtime): string {
  return fields([
    ['id', op.id],
    ['action', op.action],
    ['filter', filterText(op)],
    ['progress', progressLine(op)],
    ...(op.error ? ([['error', op.error]] as [string, string][]) : []),
    ['created', formatTime(op.createdAt, rt.out)],
    ['finished', formatTime(op.finishedAt, rt.out)],
  ]);
}

/** Polls until the operation ends, a line each time its progress moves; exit 0 when it succeeded. */
async function watch(rt: Runtime, id: string, interval: string): Promise<number> {
  const every = parseDuration(interval, '--interval');
  const client = rt.client();
  let last = '';
  for (;;) {
    const op = await client.getOperation(id);
    const line = progressLine(op);
    if (line !== last) {
      last = line;
      const at = formatTime(new Date().toISOString(), { ...rt.out, time: 'iso' });
      rt.print({ body: op, items: [op], table: () => `${at}  ${line}` });
    }
    if (op.state !== 'running') return op.state === 'succeeded' ? EXIT.ok : EXIT.error;
    await sleep(every, rt.io.signal);
    if (rt.io.signal.aborted) {
      rt.progress.clear();
      return EXIT.interrupted;
    }
  }
}

export function registerOperationCommands(program: Command, act: Act): void {
  const operation = program
    .command('operation')
    .alias('ops')
    .description('bulk actions by filter (cancel, pause, resume, redrive, retry), run by the server');

  operation
    .command('start')
    .description(
      'start a bulk action on what the filter matches (at least one of --task, --tag, --since, --until)',
    )
    .addOption(new Option('--action <action>', 'what to do').choices(ACTIONS).makeOptionMandatory())
    .option('--task <id>', 'one task: its runs, or the task itself (pause, resume)')
    .option('--tag <key:value>', 'with this tag (repeatable: all must match)', collect)
    .addOption(
      new Option('--state <state>', 'only runs in this state').choices(['pending', 'running', 'dead']),
    )
    .option('--since <time>', 'runs scheduled at or after: RFC 3339 or a duration ago')
    .option('--until <time>', 'runs scheduled before: RFC 3339 or a duration ago')
    .option('--error-contains <text>', 'only runs whose last error contains this text (ignoring case)')
    .option('--dry-run', 'say how many it would change, and change nothing')
    .option('--watch', 'follow its progress until it ends (exit 0 succeeded, 1 otherwise)')
    .option('--interval <duration>', 'how often --watch polls', '1s')
    .action(
      act(async (rt: Runtime, opts: StartOptions & { action: (typeof ACTIONS)[number] }) => {
        if (!opts.task && !opts.tag && !opts.since && !opts.until) {
          throw new UsageError(
            'give at least one of --task, --tag, --since, --until (never everything)',
            'filter',
          );
        }
        const now = Date.now();
        const body: StartOperationRequest = {
          action: opts.action,
          filter: {
            ...(opts.task ? { taskId: opts.task } : {}),
            ...(opts.tag ? { tag: opts.tag } : {}),
            ...(opts.state ? { state: opts.state } : {}),
            ...(opts.since ? { from: parseTime(opts.since, '--since', now) } : {}),
            ...(opts.until ? { to: parseTime(opts.until, '--until', now) } : {}),
            ...(opts.errorContains !== undefined ? { errorContains: opts.errorContains } : {}),
          },
          ...(opts.dryRun ? { dryRun: true } : {}),
        };
        const answer = await rt.client().startOperation(body);
        if ('dryRun' in answer) {
          rt.print({
            body: answer,
            table: () => `would change ${answer.matched} ${WHAT[opts.action]} (dry run: nothing changed)`,
          });
          return;
        }
        if (!opts.watch) {
          rt.print({ body: answer, table: () => operationDetail(answer, rt) });
          return;
        }
        rt.io.stderr(`operation ${answer.id}: ${opts.action} of ${answer.matched} ${WHAT[opts.action]}\n`);
        return watch(rt, answer.id, opts.interval);
      }),
    );

  operation
    .command('list')
    .description('the bulk operations, newest first')
    .option('--limit <n>', 'page size (default 50, at most 500)')
    .option('--page-token <token>', 'start at this page')
    .action(
      act(async (rt: Runtime, opts: { limit?: string; pageToken?: string }) => {
        const page = await rt.client().operationsPage({
          ...(opts.limit ? { limit: parseCount(opts.limit, '--limit') } : {}),
          ...(opts.pageToken ? { pageToken: opts.pageToken } : {}),
        });
        rt.print({
          body: page,
          items: page.operations,
          table: () =>
            table(
              ['id', 'action', 'filter', 'state', 'done', 'created'],
              page.operations.map((op) => [
                op.id,
                op.action,
                filterText(op),
                op.state,
                `${op.done}/${op.matched}${op.failed ? ` (${op.failed} failed)` : ''}`,
                formatTime(op.createdAt, rt.out),
              ]),
            ) + (page.nextPageToken ? `\n\nmore: --page-token ${page.nextPageToken}` : ''),
        });
      }),
    );

  operation
    .command('get <id>')
    .description('one bulk operation and its progress')
    .action(
      act(async (rt: Runtime, id: string) => {
        const op = await rt.client().getOperation(id);
        rt.print({ body: op, table: () => operationDetail(op, rt) });
      }),
    );

  operation
    .command('watch <id>')
    .description('print its progress as it moves until it ends (exit 0 succeeded, 1 otherwise)')
    .option('--interval <duration>', 'how often to poll', '1s')
    .action(act((rt: Runtime, id: string, opts: { interval: string }) => watch(rt, id, opts.interval)));

  operation
    .command('cancel <id>')
    .description('stop a running bulk operation before its next batch (what it changed stays changed)')
    .action(
      act(async (rt: Runtime, id: string) => {
        const op = await rt.client().cancelOperation(id);
        rt.print({ body: op, table: () => `${cell(op.id)}: ${progressLine(op)}` });
      }),
    );
}
