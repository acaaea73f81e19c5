import type { ApplyResult, ApplyTasksRequest } from '@dsched/client';
import type { Command } from 'commander';
import { UsageError } from '../exit-codes.ts';
import { readYaml } from '../input.ts';
import type { Runtime } from '../runtime.ts';
import type { Act } from './act.ts';

// dsched apply -f FILE [--dry-run] [--prune]: schedules as code (docs/schedules-as-code.md). The
// file is a list of tasks with keys (YAML or JSON; or `tasks:` holding the list); the API applies
// it in one transaction and answers the plan, printed here. `-o json` prints {created, updated,
// deleted, unchanged}, each a list of keys, for a CI pipeline to read.

/** The tasks of an apply file: a list, or an object whose `tasks` is one. */
export async function readApplyFile(path: string, rt: Runtime): Promise<unknown[]> {
  const doc = await readYaml(path, rt.io, '--file');
  const tasks = Array.isArray(doc) ? doc : (doc as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks))
    throw new UsageError(`${path} must hold a list of tasks (or tasks: [...])`, '--file');
  return tasks;
}

function quote(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v);
}

/** The plan for people: a line per task, the fields of each update, and a summary. */
export function planText(result: ApplyResult): string {
  const lines: string[] = [];
  const mark = { create: '+', update: '~', delete: '-', unchanged: '=' } as const;
  const width = Math.max(0, ...result.plan.map((p) => p.key.length));
  for (const step of result.plan) {
    if (step.action === 'unchanged') continue;
    lines.push(
      `${mark[step.action]} ${step.action.padEnd(6)} ${step.key.padEnd(width)}  ${step.description}`,
    );
    for (const c of step.changes ?? []) lines.push(`    ${c.field}: ${quote(c.from)} → ${quote(c.to)}`);
  }
  const n = (keys: string[]) => keys.length;
  const changed = n(result.created) + n(result.updated) + n(result.deleted);
  if (changed > 0 && n(result.unchanged) > 0) lines.push(`= unchanged: ${result.unchanged.join(', ')}`);
  const summary =
    changed === 0
      ? `No changes: ${n(result.unchanged)} task${n(result.unchanged) === 1 ? '' : 's'} as the file says.`
      : `${result.dryRun ? 'Would create' : 'Created'} ${n(result.created)}, ${result.dryRun ? 'update' : 'updated'} ${n(result.updated)}, ${result.dryRun ? 'delete' : 'deleted'} ${n(result.deleted)}; ${n(result.unchanged)} unchanged.${result.dryRun ? ' Dry run: nothing changed.' : ''}`;
  return [...lines, lines.length > 0 ? '' : null, summary].filter((l) => l !== null).join('\n');
}

export function registerApplyCommand(program: Command, act: Act): void {
  program
    .command('apply')
    .description(
      'make the tenant’s keyed tasks what FILE says: create, update, leave; --prune deletes the rest',
    )
    .requiredOption('-f, --file <path>', 'a list of tasks with keys, YAML or JSON (- for stdin)')
    .option('--dry-run', 'print the plan and change nothing')
    .option(
      '--prune',
      'also delete the tenant’s keyed tasks the file does not list (never a task without a key)',
    )
    .action(
      act(async (rt: Runtime, opts: { file: string; dryRun?: boolean; prune?: boolean }) => {
        const tasks = await readApplyFile(opts.file, rt);
        const result = await rt.client().applyTasks({
          tasks: tasks as ApplyTasksRequest['tasks'],
          prune: opts.prune === true,
          dryRun: opts.dryRun === true,
        });
        const keys = {
          created: result.created,
          updated: result.updated,
          deleted: result.deleted,
          unchanged: result.unchanged,
        };
        rt.print({ body: rt.out.format === 'yaml' ? result : keys, table: () => planText(result) });
      }),
    );
}
