import { Command, Option } from 'commander';
import { actWith } from './commands/act.ts';
import { registerApiCommand } from './commands/api.ts';
import { registerApplyCommand } from './commands/apply.ts';
import { registerCompletionCommand } from './commands/completion.ts';
import { registerContextCommands } from './commands/context.ts';
import { registerDlqCommands } from './commands/dlq.ts';
import { registerOperationCommands } from './commands/operation.ts';
import { registerRunCommands } from './commands/run.ts';
import { registerScheduleCommands, registerTaskCommands } from './commands/task.ts';
import { registerTenantCommands } from './commands/tenant.ts';
import { registerWorkflowCommands } from './commands/workflow.ts';
import { FORMATS, TIME_STYLES } from './output.ts';
import type { Io } from './runtime.ts';

// The `dsched` command tree.

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('dsched')
    .description('dsched: at and cron as a service, from the command line')
    .version('0.1.0')
    .addOption(new Option('-o, --output <format>', 'output format').choices(FORMATS).default('table'))
    .addOption(new Option('--time <style>', 'times in tables').choices(TIME_STYLES).default('relative'))
    .option('--context <name>', 'use this context (default: the current one; env DSCHED_CONTEXT)')
    .option('--task-api <url>', 'task-api URL (env DSCHED_TASK_API; default http://127.0.0.1:8080)')
    .option('--job-api <url>', 'job-api URL (env DSCHED_JOB_API; default http://127.0.0.1:8081)')
    .option('--key <apiKey>', 'tenant API key (env DSCHED_KEY)')
    .option('--admin-token <token>', 'operator token (env DSCHED_ADMIN_TOKEN)')
    .showHelpAfterError('(dsched --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
    })
    .exitOverride();
  const act = actWith(io, setExit);
  registerContextCommands(program, act);
  registerTaskCommands(program, act);
  registerApplyCommand(program, act);
  registerScheduleCommands(program, act);
  registerRunCommands(program, act);
  registerDlqCommands(program, act);
  registerWorkflowCommands(program, act);
  registerOperationCommands(program, act);
  registerTenantCommands(program, act);
  registerApiCommand(program, act);
  registerCompletionCommand(program, act);
  // Subcommands report usage errors through the same override (exit 2) and output.
  const configure = (cmd: Command) => {
    for (const c of cmd.commands) {
      c.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
      configure(c);
    }
  };
  configure(program);
  return program;
}
