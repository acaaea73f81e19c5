import type { Command } from 'commander';
import { type Context, maskSecret, readConfig, writeConfig } from '../contexts.ts';
import { UsageError } from '../exit-codes.ts';
import { table } from '../output.ts';
import type { Runtime } from '../runtime.ts';
import type { Act } from './act.ts';

// dsched context add|use|list|remove: named sets of URLs and credentials in ~/.config/dsched.

export function registerContextCommands(program: Command, act: Act): void {
  const context = program
    .command('context')
    .description('named API URLs and credentials (~/.config/dsched, mode 0600)');

  context
    .command('add <name>')
    .description('add or replace a context from --task-api, --job-api, --key and --admin-token')
    .option('--use', 'make it the current context')
    .action(
      act(async (rt: Runtime, name: string, opts: { use?: boolean }) => {
        // The settings as resolved now: flags, then environment, then the current context.
        const { taskApi, jobApi, key, adminToken } = rt.settings;
        if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new UsageError('letters, digits, . _ - only', 'name');
        const entry: Context = {
          taskApi,
          jobApi,
          ...(key ? { key } : {}),
          ...(adminToken ? { adminToken } : {}),
        };
        for (const [field, url] of [
          ['--task-api', entry.taskApi],
          ['--job-api', entry.jobApi],
        ] as const) {
          if (!url || !URL.canParse(url)) throw new UsageError(`not a URL: ${url}`, field);
        }
        const config = await readConfig(rt.configPath);
        config.contexts[name] = entry;
        if (opts.use || !config.current) config.current = name;
        await writeConfig(rt.configPath, config);
        rt.print({
          body: { name, current: config.current === name },
          table: () =>
            `context ${name} saved${config.current === name ? ' and in use' : ''} (${rt.configPath})`,
        });
      }),
    );

  context
    .command('use <name>')
    .description('make a context the current one')
    .action(
      act(async (rt: Runtime, name: string) => {
        const config = await readConfig(rt.configPath);
        if (!config.contexts[name]) throw new UsageError(`no context named "${name}"`, 'name');
        config.current = name;
        await writeConfig(rt.configPath, config);
        rt.print({ body: { name, current: true }, table: () => `using context ${name}` });
      }),
    );

  context
    .command('remove <name>')
    .description('forget a context')
    .action(
      act(async (rt: Runtime, name: string) => {
        const config = await readConfig(rt.configPath);
        if (!config.contexts[name]) throw new UsageError(`no context named "${name}"`, 'name');
        delete config.contexts[name];
        if (config.current === name) delete config.current;
        await writeConfig(rt.configPath, config);
        rt.print({ body: { name, removed: true }, table: () => `removed context ${name}` });
      }),
    );

  context
    .command('list')
    .description('the contexts, secrets masked')
    .action(
      act(async (rt: Runtime) => {
        const config = await readConfig(rt.configPath);
        const contexts = Object.entries(config.contexts).map(([name, c]) => ({
          name,
          current: name === config.current,
          taskApi: c.taskApi,
          jobApi: c.jobApi,
          key: c.key ? maskSecret(c.key) : undefined,
          adminToken: c.adminToken ? maskSecret(c.adminToken) : undefined,
        }));
        rt.print({
          body: { current: config.current ?? null, contexts },
          items: contexts,
          table: () =>
            table(
              ['', 'name', 'task api', 'job api', 'key', 'admin token'],
              contexts.map((c) => [
                c.current ? '*' : '',
                c.name,
                c.taskApi ?? '-',
                c.jobApi ?? '-',
                c.key ?? '-',
                c.adminToken ?? '-',
              ]),
            ),
        });
      }),
    );
}
