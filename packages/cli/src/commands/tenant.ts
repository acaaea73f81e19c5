import type { Command } from 'commander';
import { UsageError } from '../exit-codes.ts';
import { parseCount, parseWeight } from '../input.ts';
import { fields } from '../output.ts';
import type { Runtime } from '../runtime.ts';
import { tenantDetail } from '../views.ts';
import type { Act } from './act.ts';

// dsched tenant create|get|update|rotate-key: operator commands, with the admin token.

interface QuotaFlags {
  name?: string;
  maxConcurrency?: string;
  maxTasks?: string;
  rateLimit?: string;
  weight?: string;
}

function quotas(opts: QuotaFlags): Record<string, unknown> {
  const n = (v: string | undefined, field: string) =>
    v === 'none' ? null : v === undefined ? undefined : parseCount(v, field);
  const body: Record<string, unknown> = {
    name: opts.name,
    maxConcurrency: n(opts.maxConcurrency, '--max-concurrency'),
    maxTasks: n(opts.maxTasks, '--max-tasks'),
    rateLimitPerSecond: n(opts.rateLimit, '--rate-limit'),
    weight: opts.weight === undefined ? undefined : parseWeight(opts.weight, '--weight'),
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

const quotaOptions = (cmd: Command) =>
  cmd
    .option('--max-concurrency <n|none>', 'runs in flight at once, across all executors')
    .option('--max-tasks <n|none>', 'tasks the tenant may hold')
    .option('--rate-limit <n|none>', 'API requests per second')
    .option('--weight <w>', 'share of a saturated fleet against other tenants, 0.001–1000 (default 1)');

export function registerTenantCommands(program: Command, act: Act): void {
  const tenant = program.command('tenant').description('tenants (operators: needs the admin token)');

  quotaOptions(
    tenant.command('create').description('create a tenant; its API key and signing secret are shown once'),
  )
    .requiredOption('--name <name>', 'tenant name')
    .action(
      act(async (rt: Runtime, opts: QuotaFlags) => {
        const created = await rt.client().createTenant(quotas(opts) as never);
        rt.print({ body: created, table: () => tenantDetail(created, rt.out) });
      }),
    );

  tenant
    .command('get <id>')
    .description('one tenant')
    .action(
      act(async (rt: Runtime, id: string) => {
        const t = await rt.client().getTenant(id);
        rt.print({ body: t, table: () => tenantDetail(t, rt.out) });
      }),
    );

  quotaOptions(
    tenant.command('update <id>').description('change a tenant’s name, quotas (none clears one) or weight'),
  )
    .option('--name <name>', 'new name')
    .action(
      act(async (rt: Runtime, id: string, opts: QuotaFlags) => {
        const patch = quotas(opts);
        if (Object.keys(patch).length === 0) throw new UsageError('nothing to change', '--name');
        const t = await rt.client().updateTenant(id, patch as never);
        rt.print({ body: t, table: () => tenantDetail(t, rt.out) });
      }),
    );

  tenant
    .command('rotate-key <id>')
    .description('a new API key; the old one keeps working for KEY_ROTATION_GRACE_S')
    .action(
      act(async (rt: Runtime, id: string) => {
        const result = await rt.client().rotateKey(id);
        rt.print({
          body: result,
          table: () =>
            fields([
              ['id', result.id],
              ['api key', `${result.apiKey}  (shown once)`],
            ]),
        });
      }),
    );
}
