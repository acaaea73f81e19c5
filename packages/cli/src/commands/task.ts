import type { Task } from '@dsched/client';
import type { Command } from 'commander';
import { UsageError } from '../exit-codes.ts';
import { collect, parseCount, parseTime } from '../input.ts';
import { formatTime, table } from '../output.ts';
import type { Runtime } from '../runtime.ts';
import { needsCurrent, type TaskFlags, taskBody } from '../task-body.ts';
import { occurrenceRows, parsedSchedule, taskDetail, taskRows } from '../views.ts';
import { type Act, eachId } from './act.ts';

// dsched task create|list|get|update|delete|pause|resume|trigger|backfill|next|audit

function taskOptions(cmd: Command): Command {
  return cmd
    .option('-f, --file <path>', 'the task as YAML or JSON (- for stdin); flags override its fields')
    .option('--name <name>', 'task name')
    .option(
      '--key <key>',
      'the task’s key: your name for it, unique among your tasks (dsched apply finds it by it)',
    )
    .option('--cron <expression>', 'cron schedule: five fields, or six with seconds first')
    .option('--when <words>', 'the schedule in words: "every weekday at 9am", "tomorrow at 5pm"')
    .option('--at <time>', 'once, at this RFC 3339 time')
    .option('--in <duration>', 'once, this long from now (90s, 15m, 2h)')
    .option('--timezone <zone>', 'IANA zone of a cron schedule (default UTC)')
    .option('--dst-repeated <first|last|both>', 'which pass of a repeated wall time fires')
    .option('--dst-skipped <shift|skip>', 'a wall time in a spring-forward gap: shift or skip')
    .option('--holidays <region>', 'calendar: no runs on public holidays of DE, DE-BE, US-CA...')
    .option('--weekends', 'calendar: no runs on Saturdays and Sundays')
    .option('--exclude-dates <dates>', 'calendar: no runs on these dates (YYYY-MM-DD,YYYY-MM-DD)')
    .option(
      '--on-excluded <skip|next_business_day|previous_business_day>',
      'calendar: a run on an excluded day is skipped (default) or moved',
    )
    .option('--url <url>', 'target URL')
    .option('--method <method>', 'target method (default POST)')
    .option('--header <name:value>', 'target header (repeatable)', (v, p: string[] = []) => [...p, v])
    .option('--body <json|@file|text>', 'target body')
    .option('--timeout-ms <ms>', 'target timeout')
    .option('--priority <critical|high|normal|low>', 'priority')
    .option('--lane <critical|default|long>', 'executor lane')
    .option('--max-attempts <n>', 'attempts before the DLQ')
    .option('--misfire <fire_once|fire_all|skip>', 'what to do with occurrences missed in downtime')
    .option('--overlap <allow|forbid>', 'whether a run may start while the previous one runs')
    .option('--metadata <json|@file>', 'free-form metadata object')
    .option('--tag <key:value>', 'a tag (repeatable; on update the given ones replace all)', collect);
}

export function registerTaskCommands(program: Command, act: Act): void {
  const task = program.command('task').description('tasks: a schedule and an HTTP target');

  taskOptions(task.command('create').description('create a task from flags or -f task.yaml')).action(
    act(async (rt: Runtime, opts: TaskFlags) => {
      const body = await taskBody(opts, rt.io, rt.out.now());
      const created = await rt.client().createTask(body as never);
      rt.print({ body: created, table: () => taskDetail(created, rt.out) });
    }),
  );

  task
    .command('list')
    .description('the tenant’s tasks, oldest first')
    .option('--state <active|paused>', 'only tasks in this state')
    .option('--key <key>', 'only the task with this key')
    .option('--tag <key:value>', 'only tasks with this tag (repeatable: all must match)', collect)
    .option('--limit <n>', 'page size (default 50, at most 500)')
    .option('--page-token <token>', 'start at this page')
    .option('--all', 'walk every page')
    .action(
      act(
        async (
          rt: Runtime,
          opts: {
            state?: 'active' | 'paused';
            key?: string;
            tag?: string[];
            limit?: string;
            pageToken?: string;
            all?: boolean;
          },
        ) => {
          const query = {
            ...(opts.state ? { state: opts.state } : {}),
            ...(opts.key ? { key: opts.key } : {}),
            ...(opts.tag ? { tag: opts.tag } : {}),
            ...(opts.limit ? { limit: parseCount(opts.limit, '--limit') } : {}),
            ...(opts.pageToken ? { pageToken: opts.pageToken } : {}),
          };
          if (opts.all) {
            const tasks = await rt.client().tasks(query).toArray();
            rt.print({ body: { tasks }, items: tasks, table: () => taskRows(tasks, rt.out) });
            return;
          }
          const page = await rt.client().listTasks(query);
          rt.print({
            body: page,
            items: page.tasks,
            table: () =>
              taskRows(page.tasks, rt.out) +
              (page.nextPageToken ? `\n\nmore: --page-token ${page.nextPageToken}` : ''),
          });
        },
      ),
    );

  task
    .command('get <id>')
    .description('one task, with its next fire times, UTC offsets and DST notes')
    .option('--count <n>', 'how many fire times to show', '5')
    .action(
      act(async (rt: Runtime, id: string, opts: { count: string }) => {
        const client = rt.client();
        const found = await client.getTask(id);
        const preview =
          rt.out.format === 'table'
            ? await client.occurrences(id, { count: parseCount(opts.count, '--count') })
            : undefined;
        rt.print({ body: found, table: () => taskDetail(found, rt.out, preview) });
      }),
    );

  taskOptions(task.command('update <id>').description('change a task: the fields given replace those fields'))
    .option('--if-match <version>', 'only if the task is still at this version')
    .action(
      act(async (rt: Runtime, id: string, opts: TaskFlags & { ifMatch?: string }) => {
        const client = rt.client();
        const current = needsCurrent(opts)
          ? ((await client.getTask(id)) as unknown as Record<string, unknown>)
          : undefined;
        const patch = await taskBody(opts, rt.io, rt.out.now(), current);
        if (Object.keys(patch).length === 0)
          throw new UsageError('nothing to change: give a flag or -f', '--file');
        const ifMatch = opts.ifMatch !== undefined ? parseCount(opts.ifMatch, '--if-match') : undefined;
        const updated = await client.updateTask(id, patch as never, ifMatch !== undefined ? { ifMatch } : {});
        rt.print({ body: updated, table: () => taskDetail(updated, rt.out) });
      }),
    );

  task
    .command('delete <id...>')
    .description('delete tasks; their jobs not yet started are cancelled')
    .action(
      act(async (rt: Runtime, ids: string[]) =>
        eachId(rt, ids, async (id) => {
          await rt.client().deleteTask(id);
          return { body: undefined, table: () => `deleted ${id}` };
        }),
      ),
    );

  for (const action of ['pause', 'resume'] as const) {
    task
      .command(`${action} <id...>`)
      .description(
        action === 'pause'
          ? 'pause tasks: nothing fires, jobs made ahead are cancelled'
          : 'resume tasks from now; what fell due while paused is skipped',
      )
      .option('--reason <text>', 'why (written to task-api’s log with the task id)')
      .action(
        act(async (rt: Runtime, ids: string[], opts: { reason?: string }) =>
          eachId(rt, ids, async (id) => {
            const why = opts.reason ? { reason: opts.reason } : {};
            const t: Task =
              action === 'pause'
                ? await rt.client().pauseTask(id, why)
                : await rt.client().resumeTask(id, why);
            return {
              body: t,
              table: () => `${t.id}  ${t.state}  next fire ${formatTime(t.nextFireAt, rt.out)}`,
            };
          }),
        ),
      );
  }

  task
    .command('trigger <id>')
    .description('run a task now, as a job of its own')
    .option('--idempotency-key <key>', 'asking again with the same key answers the same job')
    .action(
      act(async (rt: Runtime, id: string, opts: { idempotencyKey?: string }) => {
        const result = await rt
          .client()
          .triggerTask(id, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {});
        rt.print({ body: result, table: () => `job ${result.jobId}  (dsched run watch ${result.jobId})` });
      }),
    );

  task
    .command('backfill <id>')
    .description('run the schedule’s occurrences in [from, to) as backfill jobs (twice runs them once)')
    .requiredOption('--from <time>', 'RFC 3339 time or a duration ago (7d)')
    .requiredOption('--to <time>', 'RFC 3339 time, now, or a duration ago')
    .action(
      act(async (rt: Runtime, id: string, opts: { from: string; to: string }) => {
        const now = rt.out.now();
        const result = await rt.client().backfillTask(id, {
          from: parseTime(opts.from, '--from', now),
          to: parseTime(opts.to, '--to', now),
        });
        rt.print({
          body: result,
          table: () => `${result.count} occurrences in the range, ${result.created} jobs made now`,
        });
      }),
    );

  task
    .command('next <id>')
    .description('the next fire times, DST policy applied (the scheduler’s own computation)')
    .option('--count <n>', 'how many', '10')
    .option('--from <time>', 'from this time instead of now')
    .action(
      act(async (rt: Runtime, id: string, opts: { count: string; from?: string }) => {
        const preview = await rt.client().occurrences(id, {
          count: parseCount(opts.count, '--count'),
          ...(opts.from ? { from: parseTime(opts.from, '--from', rt.out.now(), 'future') } : {}),
        });
        rt.print({ body: preview, items: preview.occurrences, table: () => occurrenceRows(preview, rt.out) });
      }),
    );

  task
    .command('audit <id>')
    .description('every occurrence the schedule implies in [from, to) and what became of it')
    .requiredOption('--from <time>', 'RFC 3339 time or a duration ago (1d)')
    .option('--to <time>', 'RFC 3339 time, now, or a duration ago', 'now')
    .action(
      act(async (rt: Runtime, id: string, opts: { from: string; to: string }) => {
        const now = rt.out.now();
        const audit = await rt
          .client()
          .auditTask(id, { from: parseTime(opts.from, '--from', now), to: parseTime(opts.to, '--to', now) });
        rt.print({
          body: audit,
          items: audit.occurrences,
          table: () =>
            `${table(
              ['scheduled for', 'status', 'job', 'reason'],
              audit.occurrences.map((o) => [
                formatTime(o.scheduledFor, rt.out),
                o.status,
                o.jobId ?? '-',
                o.reason ?? '-',
              ]),
            )}\n\n${
              Object.entries(audit.counts)
                .filter(([, n]) => n > 0)
                .map(([s, n]) => `${s} ${n}`)
                .join(', ') || 'no occurrences in the range'
            }`,
        });
      }),
    );
}

export function registerScheduleCommands(program: Command, act: Act): void {
  const schedule = program.command('schedule').description('schedules not yet saved');
  schedule
    .command('parse <words...>')
    .description('read a schedule in words: what it gives, in one sentence, and its next fire times')
    .option('--timezone <zone>', 'IANA zone of words that name none (default UTC)')
    .action(
      act(async (rt: Runtime, words: string[], opts: { timezone?: string }) => {
        const parsed = await rt.client().parseSchedule({
          text: words.join(' '),
          ...(opts.timezone ? { timezone: opts.timezone } : {}),
        });
        rt.print({ body: parsed, table: () => parsedSchedule(parsed, rt.out) });
      }),
    );
  schedule
    .command('preview')
    .description('the next fire times of a schedule, DST policy applied, without saving anything')
    .option('--cron <expression>', 'cron expression')
    .option('--when <words>', 'the schedule in words')
    .option('--at <time>', 'a once schedule at this time')
    .option('--timezone <zone>', 'IANA zone (default UTC)')
    .option('--dst-repeated <first|last|both>', 'which pass of a repeated wall time fires')
    .option('--dst-skipped <shift|skip>', 'a wall time in a spring-forward gap: shift or skip')
    .option('--count <n>', 'how many', '10')
    .option('--from <time>', 'from this time instead of now')
    .action(
      act(async (rt: Runtime, opts: TaskFlags & { count: string; from?: string }) => {
        const body = await taskBody({ ...opts, file: undefined }, rt.io, rt.out.now());
        if (!body.schedule) throw new UsageError('give --cron, --when or --at', '--cron');
        const preview = await rt.client().previewSchedule({
          schedule: body.schedule as never,
          count: parseCount(opts.count, '--count'),
          ...(opts.from ? { from: parseTime(opts.from, '--from', rt.out.now(), 'future') } : {}),
        });
        rt.print({
          body: preview,
          items: preview.occurrences,
          table: () => `${preview.description}\n\n${occurrenceRows(preview, rt.out)}`,
        });
      }),
    );
}
