import { idToBin } from '@dsched/mysql/ids';
import { runOperationBatch, takeOperation } from '@dsched/mysql/operations';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { insertJobs } from '@dsched/testkit/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, cli, cliEnv, type Stack, startStack } from './cli-kit.ts';

// `dsched operation` (docs/bulk-operations.md) as a process against task-api as a process: a dry
// run, a start, its progress watched to the end while the reconciler's own batches run, a cancel,
// the list; bad input exits 2 and changes nothing.

let stack: Stack;
let env: Record<string, string>;
let tenantId: string;

beforeAll(async () => {
  stack = await startStack(import.meta.url);
  const made = await cli(
    ['tenant', 'create', '--name', 'ops', '-o', 'json'],
    cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN }),
  );
  const tenant = JSON.parse(made.stdout) as { id: string; apiKey: string };
  tenantId = tenant.id;
  env = cliEnv(stack, { DSCHED_KEY: tenant.apiKey });
  await insertJobs(
    stack.db.pool,
    Array.from({ length: 30 }, (_, i) => ({
      tenantId,
      taskId: null,
      scheduledFor: new Date(Date.now() + 3600_000 + i * 1000),
      state: 'pending' as const,
      tags: { team: i < 20 ? 'cli' : 'other' },
    })),
  );
});
afterAll(async () => {
  await stack?.close();
});

const pending = async () => {
  const [rows] = await stack.db.pool.query<RowDataPacket[]>(
    "SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND state = 'pending'",
    [idToBin(tenantId)],
  );
  return Number(rows[0]!.n);
};

it('refuses a start with no filter, an unknown action or a bad time: exit 2, nothing changed', async () => {
  for (const args of [
    ['operation', 'start', '--action', 'cancel'],
    ['operation', 'start', '--action', 'delete', '--tag', 'team:cli'],
    ['operation', 'start', '--action', 'cancel', '--since', 'yesterday'],
    ['ops', 'start', '--action', 'redrive', '--tag', 'team:cli', '--state', 'pending'],
  ]) {
    const r = await cli(args, env);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
  }
  expect(await pending()).toBe(30);
  expect(JSON.parse((await cli(['operation', 'list', '-o', 'json'], env)).stdout).operations).toEqual([]);
});

it('dry-runs, starts, watches to the end and lists an operation', async () => {
  const dry = await cli(['operation', 'start', '--action', 'cancel', '--tag', 'team:cli', '--dry-run'], env);
  expect([dry.code, dry.stdout.trim()]).toEqual([
    0,
    'would change 20 pending or running runs to cancel (dry run: nothing changed)',
  ]);
  expect(await pending()).toBe(30);

  const started = await cli(['ops', 'start', '--action', 'cancel', '--tag', 'team:cli', '-o', 'json'], env);
  expect(started.code, started.stderr).toBe(0);
  const op = JSON.parse(started.stdout) as { id: string; matched: number; state: string };
  expect(op).toMatchObject({ matched: 20, state: 'running' });

  // The reconciler's batches (its own code), 8 jobs each, while the CLI watches.
  const watching = cli(['operation', 'watch', op.id, '--interval', '100ms'], env);
  const owner = 'cli-test:1';
  await takeOperation(stack.db.pool, owner, 30_000);
  for (let i = 0; i < 3; i++) {
    await runOperationBatch(stack.db.pool, op.id, owner, { batchSize: 8, ttlMs: 30_000 });
    await new Promise((r) => setTimeout(r, 150));
  }
  const watched = await watching;
  expect(watched.code, watched.stderr).toBe(0);
  expect(watched.stdout).toMatch(/succeeded {2}20 of 20 done \(100%\), 0 failed/);
  expect(await pending()).toBe(10);

  const listed = await cli(['operation', 'list'], env);
  expect(listed.stdout).toContain(op.id);
  expect(listed.stdout).toMatch(/cancel +tag team:cli +succeeded +20\/20/);
  const cancelLate = await cli(['operation', 'cancel', op.id], env);
  expect(cancelLate.code).toBe(1);
  expect(cancelLate.stderr).toMatch(/conflict/);
});

it('cancels a running operation: watch exits 1 when it ends cancelled', async () => {
  const started = await cli(['ops', 'start', '--action', 'cancel', '--tag', 'team:other', '-o', 'json'], env);
  const op = JSON.parse(started.stdout) as { id: string };
  const asked = await cli(['operation', 'cancel', op.id], env);
  expect([asked.code, asked.stdout.trim()]).toEqual([
    0,
    `${op.id}: running  0 of 10 done (0%), 0 failed, cancel asked`,
  ]);
  const owner = 'cli-test:2';
  await takeOperation(stack.db.pool, owner, 30_000);
  await runOperationBatch(stack.db.pool, op.id, owner, { batchSize: 8, ttlMs: 30_000 });
  const watched = await cli(['operation', 'watch', op.id], env);
  expect(watched.code).toBe(1);
  expect(watched.stdout).toMatch(/cancelled {2}0 of 10 done/);
  expect(await pending()).toBe(10);
});
