import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { idToBin } from '@dsched/mysql/ids';
import { runOperationBatch, takeOperation } from '@dsched/mysql/operations';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { insertJobs } from '@dsched/testkit/fixtures';
import { REPO_ROOT } from '@dsched/testkit/names';
import { eventually } from '@dsched/testkit/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, cli, cliEnv, expectGolden, type Stack, spawnCli, startStack } from './cli-kit.ts';

// `dsched` as a process against task-api and job-api as processes on the real MariaDB and
// Cassandra: golden outputs of the main commands in table and json, exit codes, bad input that
// names the field and changes nothing, a live `run watch`, contexts, `dsched api`, completion.

let stack: Stack;
let env: Record<string, string>;
let tenant: { id: string; apiKey: string };

beforeAll(async () => {
  stack = await startStack(import.meta.url, { LOG_LEVEL: 'info' });
  const made = await cli(
    ['tenant', 'create', '--name', 'acme', '-o', 'json'],
    cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN }),
  );
  expect(made.code, made.stderr).toBe(0);
  tenant = JSON.parse(made.stdout);
  env = cliEnv(stack, { DSCHED_KEY: tenant.apiKey });
});
afterAll(async () => {
  await stack?.close();
});

const tokyoTask = [
  '--name',
  'report',
  '--cron',
  '0 9 * * 1-5',
  '--timezone',
  'Asia/Tokyo',
  '--url',
  'https://example.test/report',
];

/** Requests job-api answered on the run list route, from its /metrics. */
async function runListRequests(): Promise<number> {
  const text = await (await fetch(`${stack.jobApi.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('dsched_http_requests_total{') && l.includes('route="/v1/tasks/:id/runs"'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

async function taskCount(): Promise<number> {
  const [[row]] = await stack.db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM tasks WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
    [tenant.id],
  );
  return Number(row!.n);
}

async function createTask(args = tokyoTask): Promise<{ id: string }> {
  const res = await cli(['task', 'create', ...args, '-o', 'json'], env);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

describe('golden outputs', () => {
  it('tenant create, table and json', async () => {
    const admin = cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN });
    const table = await cli(
      ['tenant', 'create', '--name', 'golden', '--max-tasks', '10', '--time', 'iso'],
      admin,
    );
    expect(table.code, table.stderr).toBe(0);
    await expectGolden('tenant-create.txt', table.stdout);
    const json = await cli(
      ['tenant', 'create', '--name', 'golden', '--rate-limit', '5', '-o', 'json'],
      admin,
    );
    await expectGolden('tenant-create.json', json.stdout);
    const got = await cli(['tenant', 'get', JSON.parse(json.stdout).id, '-o', 'yaml'], admin);
    await expectGolden('tenant-get.yaml', got.stdout);
  });

  it('tenant --weight on create and update; out of range named, exit 2, nothing changed', async () => {
    const admin = cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN });
    const made = await cli(['tenant', 'create', '--name', 'heavy', '--weight', '2.5', '-o', 'json'], admin);
    expect(made.code, made.stderr).toBe(0);
    const { id, weight } = JSON.parse(made.stdout) as { id: string; weight: number };
    expect(weight).toBe(2.5);
    const stored = async () => {
      const [[row]] = await stack.db.pool.query<RowDataPacket[]>(
        'SELECT weight FROM tenants WHERE id = UNHEX(REPLACE(?, "-", ""))',
        [id],
      );
      return Number(row!.weight);
    };
    const updated = await cli(['tenant', 'update', id, '--weight', '0.5'], admin);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toMatch(/^weight\s+0\.5$/m);
    expect(await stored()).toBe(0.5);
    const tenants = async () => {
      const [[row]] = await stack.db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM tenants');
      return Number(row!.n);
    };
    const before = await tenants();
    for (const bad of ['0', '1000.5', '0.0001', 'heavy', '-1']) {
      const up = await cli(['tenant', 'update', id, '--weight', bad], admin);
      expect([up.code, up.stdout], bad).toEqual([2, '']);
      expect(up.stderr).toContain(`--weight: expected a weight from 0.001 to 1000, got "${bad}"`);
      const create = await cli(['tenant', 'create', '--name', 'bad', '--weight', bad], admin);
      expect(create.code, bad).toBe(2);
    }
    expect(await stored()).toBe(0.5);
    expect(await tenants()).toBe(before);
  });

  it('task create, get, list and next, table and json', async () => {
    const created = await cli(['task', 'create', ...tokyoTask, '--time', 'iso'], env);
    expect(created.code, created.stderr).toBe(0);
    await expectGolden('task-create.txt', created.stdout);
    const json = await cli(['task', 'create', ...tokyoTask, '--priority', 'high', '-o', 'json'], env);
    await expectGolden('task-create.json', json.stdout);
    const id = JSON.parse(json.stdout).id as string;
    const get = await cli(['task', 'get', id, '--time', 'iso'], env);
    expect(get.code, get.stderr).toBe(0);
    await expectGolden('task-get.txt', get.stdout);
    // json is the API's body unchanged.
    const getJson = await cli(['task', 'get', id, '-o', 'json'], env);
    const api = await fetch(`${stack.taskApi.url}/v1/tasks/${id}`, {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(JSON.parse(getJson.stdout)).toEqual(await api.json());
    const list = await cli(['task', 'list', '--time', 'iso'], env);
    await expectGolden('task-list.txt', list.stdout);
    const listJson = await cli(['task', 'list', '-o', 'json', '--limit', '1'], env);
    await expectGolden('task-list.json', listJson.stdout);
    const jsonl = await cli(['task', 'list', '-o', 'jsonl', '--all', '--limit', '1'], env);
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).name),
    ).toEqual(['report', 'report']);
  });

  it('schedule parse and task create --when: the words, their sentence, or the word refused', async () => {
    const parsed = await cli(
      [
        'schedule',
        'parse',
        'on',
        'the',
        'last',
        'day',
        'of',
        'every',
        'month',
        'at',
        '23:00',
        '--timezone',
        'Europe/Berlin',
        '--time',
        'iso',
      ],
      env,
    );
    expect(parsed.code, parsed.stderr).toBe(0);
    expect(parsed.stdout).toMatch(/^when\s+At 23:00, on the last day of the month, Europe\/Berlin$/m);
    expect(parsed.stdout).toMatch(/^schedule\s+cron "0 23 L \* \*" Europe\/Berlin$/m);
    expect(parsed.stdout.match(/^ {2}\d{4}-\d{2}-\d{2}T/gm)).toHaveLength(5);
    const made = await cli(
      [
        'task',
        'create',
        '--name',
        'words',
        '--when',
        'every weekday at 9am',
        '--timezone',
        'Asia/Tokyo',
        '--url',
        'https://example.test/w',
        '-o',
        'json',
      ],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const task = JSON.parse(made.stdout) as { id: string; schedule: Record<string, unknown> };
    expect(task.schedule).toMatchObject({
      type: 'cron',
      expression: '0 9 * * 1-5',
      timezone: 'Asia/Tokyo',
      text: 'every weekday at 9am',
      description: 'At 09:00, Monday through Friday, Asia/Tokyo',
    });
    const get = await cli(['task', 'get', task.id, '--time', 'iso'], env);
    expect(get.stdout).toMatch(/^when\s+At 09:00, Monday through Friday, Asia\/Tokyo$/m);
    expect(get.stdout).toMatch(/^words\s+every weekday at 9am$/m);
    const refused = await cli(['schedule', 'parse', 'every', 'day', 'at', '9'], env);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toContain('text: "9" (word 4 of 4): "9" could be morning or evening');
  });

  it('task next shows DST shifts and skips on a real transition', async () => {
    const berlin = await createTask([
      '--name',
      'nightly',
      '--cron',
      '30 2 * * *',
      '--timezone',
      'Europe/Berlin',
      '--dst-skipped',
      'skip',
      '--url',
      'https://example.test/n',
    ]);
    const from = ['--from', '2026-03-28T00:00:00Z', '--count', '3', '--time', 'iso'];
    const table = await cli(['task', 'next', berlin.id, ...from], env);
    expect(table.code, table.stderr).toBe(0);
    await expectGolden('task-next.txt', table.stdout, { keepTimes: true });
    const json = await cli(['task', 'next', berlin.id, ...from, '-o', 'json'], env);
    await expectGolden('task-next.json', json.stdout, { keepTimes: true });
    const preview = await cli(
      [
        'schedule',
        'preview',
        '--cron',
        '30 2 * * *',
        '--timezone',
        'Europe/Berlin',
        '--from',
        '2026-10-24T12:00:00Z',
        '--count',
        '2',
        '--time',
        'iso',
      ],
      env,
    );
    await expectGolden('schedule-preview.txt', preview.stdout, { keepTimes: true });
  });

  it('run get, run list and dlq list, table and json', async () => {
    const task = await createTask();
    const at = Date.parse('2026-11-30T10:00:00Z');
    await insertJobs(stack.db.pool, [
      { tenantId: tenant.id, taskId: task.id, scheduledFor: new Date(at), state: 'succeeded' },
      {
        tenantId: tenant.id,
        taskId: task.id,
        scheduledFor: new Date(at + 60_000),
        state: 'dead',
        attempt: 3,
      },
    ]);
    const range = ['--since', '2026-11-30T00:00:00Z', '--until', '2026-12-01T00:00:00Z'];
    const list = await cli(['run', 'list', '--task', task.id, ...range, '--time', 'iso'], env);
    expect(list.code, list.stderr).toBe(0);
    await expectGolden('run-list.txt', list.stdout);
    const listJson = await cli(['run', 'list', '--task', task.id, ...range, '-o', 'json'], env);
    await expectGolden('run-list.json', listJson.stdout);
    const dead = JSON.parse(listJson.stdout).runs[0].id as string;
    const get = await cli(['run', 'get', dead, '--time', 'iso'], env);
    await expectGolden('run-get.txt', get.stdout);
    const getJson = await cli(['run', 'get', dead, '-o', 'json'], env);
    await expectGolden('run-get.json', getJson.stdout);
    const dlq = await cli(['dlq', 'list', '--task', task.id, '--time', 'iso'], env);
    await expectGolden('dlq-list.txt', dlq.stdout);
  });
});

describe('exit codes and bad input', () => {
  it('0 ok, 2 usage, 3 not found, 1 error', async () => {
    expect((await cli(['--version'], env)).code).toBe(0);
    const unknown = await cli(['task', 'lst'], env);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("unknown command 'lst'")]);
    const format = await cli(['task', 'list', '-o', 'xml'], env);
    expect([format.code, format.stderr]).toEqual([2, expect.stringContaining('--output')]);
    const missing = await cli(['task', 'get', '0192f0c4-7a1b-7c3d-8e4f-0123456789ab'], env);
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([
      3,
      '',
      expect.stringContaining('not_found'),
    ]);
    // A pending job cannot be redriven: the API's conflict is an error, exit 1.
    const task = await createTask();
    const trigger = JSON.parse((await cli(['task', 'trigger', task.id, '-o', 'json'], env)).stdout);
    const conflict = await cli(['run', 'retry', trigger.jobId], env);
    expect([conflict.code, conflict.stderr]).toEqual([1, expect.stringContaining('conflict')]);
  });

  it.each([
    ['an unknown zone', ['--timezone', 'Mars/Olympus'], 'schedule.timezone'],
    ['a bad cron', ['--cron', '0 0 30 2 *'], 'schedule.expression'],
    ['a bad DST policy', ['--dst-repeated', 'twice'], 'schedule.dst.repeated'],
  ])('%s: the field named on stderr, exit 2, nothing created', async (_what, flags, field) => {
    const before = await taskCount();
    const args = [...tokyoTask];
    for (let i = 0; i < flags.length; i += 2) {
      const at = args.indexOf(flags[i]!);
      if (at >= 0) args.splice(at, 2);
      args.push(flags[i]!, flags[i + 1]!);
    }
    const res = await cli(['task', 'create', ...args], env);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(new RegExp(`^\\s+${field.replaceAll('.', '\\.')}: `, 'm'));
    expect(await taskCount()).toBe(before);
  });

  it('a missing API key is named, exit 2, nothing sent', async () => {
    const before = await taskCount();
    const res = await cli(['task', 'create', ...tokyoTask], cliEnv(stack));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('DSCHED_KEY');
    expect(await taskCount()).toBe(before);
  });

  it('a task file missing its target: the API names the field, nothing created', async () => {
    const path = join(stack.configDir, 'task.yaml');
    await writeFile(path, 'name: from-yaml\nschedule:\n  type: cron\n  expression: "*/5 * * * *"\n');
    const before = await taskCount();
    const res = await cli(['task', 'create', '-f', path], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^\s+target: /m);
    expect(await taskCount()).toBe(before);
    await writeFile(
      path,
      'name: from-yaml\nschedule: {type: cron, expression: "*/5 * * * *"}\ntarget: {url: "https://example.test/y"}\n',
    );
    const ok = await cli(['task', 'create', '-f', path, '--name', 'flag-wins', '-o', 'json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      name: 'flag-wins',
      schedule: { expression: '*/5 * * * *' },
    });
  });
});

describe('live commands', () => {
  it('run watch prints the state change and exits when the run finishes', async () => {
    const task = await createTask();
    const { jobId } = JSON.parse((await cli(['task', 'trigger', task.id, '-o', 'json'], env)).stdout);
    const watch = spawnCli(['run', 'watch', jobId, '--interval', '100ms'], env);
    let out = '';
    const lines: string[] = [];
    const exited = new Promise<number>((resolve) => watch.on('close', (code) => resolve(code ?? -1)));
    watch.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      lines.splice(0, lines.length, ...out.split('\n').filter(Boolean));
    });
    while (lines.length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(lines[0]).toMatch(new RegExp(`${jobId}  pending  attempt 0/5$`));
    const cancel = await cli(['run', 'cancel', jobId], env);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(await exited).toBe(1); // finished, but not succeeded
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`${jobId}  cancelled  attempt 0/5(  |$)`));
  });

  it('run list --follow prints a run as it appears and as it changes, until ^C', async () => {
    const task = await createTask();
    const follow = spawnCli(
      ['run', 'list', '--task', task.id, '--follow', '--interval', '100ms', '-o', 'jsonl'],
      env,
    );
    let out = '';
    follow.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number>((resolve) => follow.on('close', (code) => resolve(code ?? -1)));
    const events = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; state: string });
    // Two polls of the run list answered (job-api counts them): nothing printed while there is no run.
    const polled = await runListRequests();
    await eventually(
      async () => ((await runListRequests()) >= polled + 2 ? true : undefined),
      10_000,
      'two polls',
    );
    expect(events()).toEqual([]);
    const { jobId } = JSON.parse((await cli(['task', 'trigger', task.id, '-o', 'json'], env)).stdout);
    await eventually(async () => (events().length === 1 ? true : undefined), 10_000, 'the new run');
    expect((await cli(['run', 'cancel', jobId], env)).code).toBe(0);
    await eventually(async () => (events().length === 2 ? true : undefined), 10_000, 'the change');
    expect(events().map((e) => [e.id, e.state])).toEqual([
      [jobId, 'pending'],
      [jobId, 'cancelled'],
    ]);
    follow.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('task pause --reason: the reason is in task-api’s log beside the task id', async () => {
    const task = await createTask();
    const res = await cli(['task', 'pause', task.id, '--reason', 'deploy freeze'], env);
    expect([res.code, res.stdout]).toEqual([0, expect.stringContaining('paused')]);
    const line = await eventually(
      async () =>
        stack.taskApi
          .output()
          .split('\n')
          .find((l) => l.includes('deploy freeze')),
      10_000,
      'the log line',
    );
    expect(JSON.parse(line)).toMatchObject({
      taskId: task.id,
      tenantId: tenant.id,
      action: 'pause',
      reason: 'deploy freeze',
    });
  });

  it('dlq redrive: a dry run and a refusal without --yes change nothing; --yes redrives', async () => {
    const task = await createTask();
    const [dead] = await insertJobs(stack.db.pool, [
      {
        tenantId: tenant.id,
        taskId: task.id,
        scheduledFor: new Date(Date.now() - 60_000),
        state: 'dead',
        attempt: 3,
      },
    ]);
    const state = async () => {
      const [[row]] = await stack.db.pool.query<RowDataPacket[]>(
        'SELECT state FROM jobs WHERE id = UNHEX(REPLACE(?, "-", ""))',
        [dead],
      );
      return String(row!.state);
    };
    const dry = await cli(['dlq', 'redrive', '--task', task.id, '--dry-run'], env);
    expect([dry.code, dry.stdout]).toEqual([0, expect.stringContaining('would redrive 1 runs')]);
    const refused = await cli(['dlq', 'redrive', '--task', task.id], env);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('--yes')]);
    expect(await state()).toBe('dead');
    const done = await cli(['dlq', 'redrive', '--id', dead!, '--yes', '-o', 'json'], env);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ count: 1, jobIds: [dead] });
    expect(await state()).toBe('pending');
  });
});

describe('contexts, api, completion, documents', () => {
  it('context add writes a 0600 file and its settings are used; list masks secrets', async () => {
    const bare = cliEnv(stack, { DSCHED_TASK_API: undefined, DSCHED_JOB_API: undefined });
    const add = await cli(
      [
        'context',
        'add',
        'local',
        '--task-api',
        stack.taskApi.url,
        '--job-api',
        stack.jobApi.url,
        '--key',
        tenant.apiKey,
        '--use',
      ],
      bare,
    );
    expect(add.code, add.stderr).toBe(0);
    const file = join(stack.configDir, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).contexts.local.key).toBe(tenant.apiKey);
    const list = await cli(['context', 'list', '-o', 'json'], bare);
    expect(list.stdout).not.toContain(tenant.apiKey);
    await expectGolden('context-list.json', list.stdout.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'));
    const viaContext = await cli(['task', 'list', '-o', 'json'], bare);
    expect(viaContext.code, viaContext.stderr).toBe(0);
    // A flag beats the context.
    const wrongKey = await cli(['task', 'list', '--key', 'dsk_not-a-key'], bare);
    expect([wrongKey.code, wrongKey.stderr]).toEqual([1, expect.stringContaining('unauthenticated')]);
  });

  it('dsched api reaches any route by operationId, and refuses an unknown parameter by name', async () => {
    const task = await createTask();
    const res = await cli(['api', 'getV1TasksIdOccurrences', `id=${task.id}`, 'count=2', '-o', 'json'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).occurrences).toHaveLength(2);
    const bad = await cli(['api', 'getV1TasksId', `id=${task.id}`, 'colour=red'], env);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('colour')]);
    const post = await cli(
      [
        'api',
        'postV1SchedulesPreview',
        '--data',
        '{"schedule":{"type":"cron","expression":"0 9 * * *"},"count":1}',
      ],
      env,
    );
    expect(post.code, post.stderr).toBe(0);
  });

  it('completion scripts complete commands, flags and operation ids', async () => {
    const script = (await cli(['completion', 'bash'], env)).stdout;
    const path = join(stack.configDir, 'dsched.bash');
    await writeFile(path, script);
    const complete = async (...words: string[]) => {
      const { stdout } = await promisify(execFile)('bash', [
        '-c',
        `source ${path}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _dsched; echo "\${COMPREPLY[*]}"`,
      ]);
      return stdout.trim().split(' ');
    };
    expect(await complete('dsched', 't')).toEqual(['task', 'tenant']);
    expect(await complete('dsched', 'task', 'create', '--name', 'x', '--dst-')).toEqual([
      '--dst-repeated',
      '--dst-skipped',
    ]);
    expect(await complete('dsched', 'api', 'getV1TasksIdO')).toEqual(['getV1TasksIdOccurrences']);
    const zsh = await cli(['completion', 'zsh'], env);
    expect(zsh.stdout).toMatch(/^#compdef dsched/);
    expect(zsh.stdout).toContain('"task create") words="');
  });

  it('the services serve exactly the documents the client was generated from', async () => {
    for (const [service, file] of [
      [stack.taskApi, 'task-api'],
      [stack.jobApi, 'job-api'],
    ] as const) {
      const live = await (await fetch(`${service.url}/openapi.json`)).json();
      const committed = JSON.parse(
        await readFile(`${REPO_ROOT}packages/client/openapi/${file}.json`, 'utf8'),
      );
      expect(live).toEqual(committed);
    }
  });

  it('pnpm dsched works from the repo root', async () => {
    const { stdout } = await promisify(execFile)('pnpm', ['dsched', '--version'], {
      cwd: REPO_ROOT,
      env: { ...process.env },
    });
    expect(stdout.trim()).toBe('0.1.0');
  });
});

describe('workflow commands', () => {
  // a → b, a → c, {b, c} → d: only a is a root, so only a has a job until it finishes (no
  // executor runs in this stack, so the run stays where submission left it).
  const dag = (name: string, extra = '') => `name: ${name}
nodes:
  - id: a
    target: {url: "https://example.test/a"}
  - id: b
    target: {url: "https://example.test/b"}
    dependsOn: [a]
  - id: c
    target: {url: "https://example.test/c"}
    dependsOn: [a]
  - id: d
    target: {url: "https://example.test/d"}
    dependsOn: [b, c]${extra}
`;

  async function workflowCount(): Promise<number> {
    const [[row]] = await stack.db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM workflows WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
      [tenant.id],
    );
    return Number(row!.n);
  }

  it('submit -f, get, nodes, pause, resume, cancel: table and json', async () => {
    const file = join(stack.configDir, 'dag.yaml');
    await writeFile(file, dag('etl'));
    const submitted = await cli(['workflow', 'submit', '-f', file, '--time', 'iso'], env);
    expect(submitted.code, submitted.stderr).toBe(0);
    await expectGolden('workflow-submit.txt', submitted.stdout);
    const id = /^id\s+(\S+)$/m.exec(submitted.stdout)![1]!;

    // json is the API's body unchanged.
    const json = await cli(['workflow', 'get', id, '-o', 'json'], env);
    const api = await fetch(`${stack.taskApi.url}/v1/workflows/${id}`, {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(JSON.parse(json.stdout)).toEqual(await api.json());
    expect(JSON.parse(json.stdout)).toMatchObject({ state: 'running', nodeCount: 4, edgeCount: 4 });

    const nodes = await cli(['workflow', 'nodes', id, '--time', 'iso'], env);
    expect(nodes.code, nodes.stderr).toBe(0);
    await expectGolden('workflow-nodes.txt', nodes.stdout);
    const waiting = await cli(['workflow', 'nodes', id, '--state', 'waiting', '-o', 'jsonl', '--all'], env);
    expect(
      waiting.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['b', 'c', 'd']);
    const badState = await cli(['workflow', 'nodes', id, '--state', 'asleep'], env);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toMatch(/^ {2}state: /m);

    const paused = await cli(['workflow', 'pause', id, '-o', 'json'], env);
    expect(JSON.parse(paused.stdout).paused).toBe(true);
    const resumed = await cli(['workflow', 'resume', id], env);
    expect(resumed.stdout.trim()).toBe(`${id}  running`);
    const cancelled = await cli(['workflow', 'cancel', id, '-o', 'json'], env);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(JSON.parse(cancelled.stdout).state).toBe('cancelled');
  });

  it('signal RUN NODE --data @file succeeds a wait node with the file as its output; again: 409, exit non-zero', async () => {
    const file = join(stack.configDir, 'approval.yaml');
    await writeFile(
      file,
      [
        'name: approval',
        'nodes:',
        '  - id: approve',
        '    kind: wait',
        '    wait: {timeoutS: 3600}',
        '  - id: nap',
        '    kind: sleep',
        '    sleep: {for: 1h}',
        '  - id: rows',
        '    kind: map',
        '    dependsOn: [approve]',
        "    map: {over: approve, target: {url: 'http://127.0.0.1:9/row'}}",
        '',
      ].join('\n'),
    );
    const { id } = JSON.parse((await cli(['workflow', 'submit', '-f', file, '-o', 'json'], env)).stdout);
    // The node table says each node's kind; a map how many of its items are made.
    const table = (await cli(['workflow', 'nodes', id], env)).stdout;
    expect(table).toMatch(/^approve\s+wait\s+pending\s/m);
    expect(table).toMatch(/^nap\s+sleep\s+pending\s/m);
    expect(table).toMatch(/^rows\s+map 0\/\?\s+waiting\s/m);
    const data = join(stack.configDir, 'decision.json');
    await writeFile(data, '{"approved": true, "by": "ann"}');
    const signalled = await cli(
      ['workflow', 'signal', id, 'approve', '--data', `@${data}`, '-o', 'json'],
      env,
    );
    expect(signalled.code, signalled.stderr).toBe(0);
    expect(JSON.parse(signalled.stdout)).toMatchObject({
      id: 'approve',
      kind: 'wait',
      state: 'succeeded',
      output: { approved: true, by: 'ann' },
    });
    const again = await cli(['workflow', 'signal', id, 'approve', '--data', '{"approved": false}'], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/conflict/);
    const badData = await cli(['workflow', 'signal', id, 'approve', '--data', '{not json'], env);
    expect(badData.code).toBe(2);
    expect(badData.stderr).toMatch(/--data/);
  });

  it('watch prints counts as they change and exits 1 when the run is cancelled', async () => {
    const file = join(stack.configDir, 'watched.yaml');
    await writeFile(file, dag('watched'));
    const { id } = JSON.parse((await cli(['workflow', 'submit', '-f', file, '-o', 'json'], env)).stdout);
    const watch = spawnCli(['workflow', 'watch', id, '--interval', '100ms'], env);
    let out = '';
    const exited = new Promise<number>((resolve) => watch.on('close', (code) => resolve(code ?? -1)));
    watch.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const lines = () => out.split('\n').filter(Boolean);
    while (lines().length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(lines()[0]).toMatch(/ {2}running {2}waiting 3, pending 1$/);
    expect((await cli(['workflow', 'cancel', id], env)).code).toBe(0);
    expect(await exited).toBe(1);
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatch(/ {2}cancelled {2}cancelled 4$/);
  });

  it('a cyclic file is refused naming the nodes of the cycle, exit 2, nothing stored', async () => {
    const before = await workflowCount();
    const file = join(stack.configDir, 'cyclic.yaml');
    await writeFile(file, dag('cyclic').replace('dependsOn: [a]\n  - id: c', 'dependsOn: [a, d]\n  - id: c'));
    const res = await cli(['workflow', 'submit', '-f', file], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/invalid_argument/);
    expect(res.stderr).toMatch(/\bb\b.*\bd\b|\bd\b.*\bb\b/);
    expect(res.stdout).toBe('');
    const notYaml = await cli(['workflow', 'submit', '-f', join(stack.configDir, 'missing.yaml')], env);
    expect(notYaml.code).toBe(2);
    expect(notYaml.stderr).toMatch(/--file: cannot read/);
    expect(await workflowCount()).toBe(before);
  });
});

describe('dsched apply', () => {
  const FILE = `# the tenant's schedules, kept in git
- key: billing.nightly
  name: nightly billing
  schedule: {type: text, text: every weekday at 2am, timezone: Europe/Berlin}
  target: {url: "https://example.test/billing"}
- key: reports.monthly
  name: month-end report
  schedule:
    type: cron
    expression: "0 18 L * *"
    timezone: Europe/Berlin
    calendar: {holidays: DE-BE, weekends: true, onExcluded: previous_business_day}
  target: {url: "https://example.test/report"}
- key: etl.hourly
  name: etl
  schedule: {type: interval, every: 1h}
  workflow:
    name: etl
    nodes:
      - {id: extract, target: {url: "https://example.test/extract"}}
      - {id: load, dependsOn: [extract], target: {url: "https://example.test/load"}}
`;

  it('plans, applies, says a second apply changes nothing, updates field by field and prunes', async () => {
    const admin = cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN });
    const made = JSON.parse(
      (await cli(['tenant', 'create', '--name', 'gitops', '-o', 'json'], admin)).stdout,
    );
    const own = cliEnv(stack, { DSCHED_KEY: made.apiKey });
    const path = join(stack.configDir, 'schedules.yaml');
    await writeFile(path, FILE);
    const dry = await cli(['apply', '-f', path, '--dry-run'], own);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      'Would create 3, update 0, delete 0; 0 unchanged. Dry run: nothing changed.',
    );
    expect(JSON.parse((await cli(['task', 'list', '-o', 'json'], own)).stdout).tasks).toEqual([]);
    const first = await cli(['apply', '-f', path], own);
    expect(first.code, first.stderr).toBe(0);
    await expectGolden('apply-create.txt', first.stdout);
    const again = await cli(['apply', '-f', path], own);
    expect(again.stdout).toBe('No changes: 3 tasks as the file says.\n');
    const json = await cli(['apply', '-f', path, '-o', 'json'], own);
    expect(JSON.parse(json.stdout)).toEqual({
      created: [],
      updated: [],
      deleted: [],
      unchanged: ['billing.nightly', 'reports.monthly', 'etl.hourly'],
    });
    // One edit, one entry dropped: an update (the field named) and, with --prune, a delete.
    const edited = FILE.replace('every weekday at 2am', 'every weekday at 3am').split(
      '- key: etl.hourly',
    )[0]!;
    await writeFile(path, edited);
    const pruned = await cli(['apply', '-f', path, '--prune'], own);
    expect(pruned.code, pruned.stderr).toBe(0);
    await expectGolden('apply-update-prune.txt', pruned.stdout);
    const keys = JSON.parse((await cli(['task', 'list', '-o', 'json'], own)).stdout).tasks.map(
      (t: { key: string }) => t.key,
    );
    expect(keys).toEqual(['billing.nightly', 'reports.monthly']);
  });

  it('a file with an error: exit 2, the entry and field named, nothing changed', async () => {
    const admin = cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN });
    const made = JSON.parse(
      (await cli(['tenant', 'create', '--name', 'gitops-bad', '-o', 'json'], admin)).stdout,
    );
    const own = cliEnv(stack, { DSCHED_KEY: made.apiKey });
    const path = join(stack.configDir, 'bad.yaml');
    await writeFile(path, FILE.replace('expression: "0 18 L * *"', 'expression: "0 18 32 * *"'));
    const res = await cli(['apply', '-f', path], own);
    expect([res.code, res.stdout]).toEqual([2, '']);
    expect(res.stderr).toMatch(/^ {2}tasks\.1\.schedule\.expression: .*\(key "reports\.monthly"\)$/m);
    expect(JSON.parse((await cli(['task', 'list', '-o', 'json'], own)).stdout).tasks).toEqual([]);
    await writeFile(path, 'name: not a list\n');
    const notList = await cli(['apply', '-f', path], own);
    expect([notList.code, notList.stderr]).toEqual([2, expect.stringContaining('must hold a list of tasks')]);
  });
});

describe('tags', () => {
  it('task create --tag, task/run/dlq/workflow list --tag (all must match); a bad tag exits 2 naming it', async () => {
    const billing = await createTask([...tokyoTask, '--tag', 'team:billing', '--tag', 'env:prod']);
    await createTask([...tokyoTask, '--tag', 'team:search']);
    const listed = await cli(
      ['task', 'list', '--tag', 'team:billing', '--tag', 'env:prod', '-o', 'json'],
      env,
    );
    expect(listed.code, listed.stderr).toBe(0);
    const tasks = JSON.parse(listed.stdout).tasks;
    expect(tasks.map((t: { id: string }) => t.id)).toEqual([billing.id]);
    expect(tasks[0].tags).toEqual({ env: 'prod', team: 'billing' });
    const table = await cli(['task', 'get', billing.id], env);
    expect(table.stdout).toMatch(/tags\s+env:prod team:billing/);

    const updated = await cli(['task', 'update', billing.id, '--tag', 'team:ops', '-o', 'json'], env);
    expect(JSON.parse(updated.stdout).tags).toEqual({ team: 'ops' });

    const triggered = await cli(['task', 'trigger', billing.id, '-o', 'json'], env);
    const { jobId } = JSON.parse(triggered.stdout);
    const runs = await cli(['run', 'list', '--tag', 'team:ops', '-o', 'json'], env);
    expect(JSON.parse(runs.stdout).jobs.map((j: { id: string }) => j.id)).toEqual([jobId]);
    const none = await cli(['dlq', 'list', '--tag', 'team:ops', '-o', 'json'], env);
    expect(JSON.parse(none.stdout).jobs).toEqual([]);

    const dag = join(stack.configDir, 'tagged.yaml');
    await writeFile(
      dag,
      'name: tagged\ntags: {team: data}\nnodes:\n  - id: a\n    target: {url: "https://example.test/a"}\n',
    );
    const submitted = JSON.parse((await cli(['workflow', 'submit', '-f', dag, '-o', 'json'], env)).stdout);
    const wfs = await cli(['workflow', 'list', '--tag', 'team:data', '-o', 'json'], env);
    expect(wfs.code, wfs.stderr).toBe(0);
    expect(JSON.parse(wfs.stdout).workflows.map((w: { id: string }) => w.id)).toEqual([submitted.id]);
    const wfTable = await cli(['workflow', 'list', '--name', 'tagged'], env);
    expect(wfTable.stdout).toContain(submitted.id);
    expect(wfTable.stdout).toContain('team:data');

    const before = await taskCount();
    const bad = await cli(['task', 'create', ...tokyoTask, '--tag', 'bad key:x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('tags.bad key');
    expect(await taskCount()).toBe(before);
    const badFilter = await cli(['task', 'list', '--tag', 'nocolon'], env);
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toContain('tag');
    const noValue = await cli(['task', 'create', ...tokyoTask, '--tag', 'novalue'], env);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toContain('--tag');
  });
});

describe('bulk operations', () => {
  // `dsched operation` (docs/bulk-operations.md): a dry run, a start, its progress watched to the
  // end while the reconciler's own batches run, a cancel, the list; bad input exits 2 and changes
  // nothing. A tenant of its own, so its list starts empty.
  let opsEnv: Record<string, string>;
  let tenantId: string;

  beforeAll(async () => {
    const made = await cli(
      ['tenant', 'create', '--name', 'ops', '-o', 'json'],
      cliEnv(stack, { DSCHED_ADMIN_TOKEN: ADMIN_TOKEN }),
    );
    const opsTenant = JSON.parse(made.stdout) as { id: string; apiKey: string };
    tenantId = opsTenant.id;
    opsEnv = cliEnv(stack, { DSCHED_KEY: opsTenant.apiKey });
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
      ['ops', 'start', '--action', 'cancel', '--tag', 'team:cli', '--error-contains', 'x'.repeat(201)],
    ]) {
      const r = await cli(args, opsEnv);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
    expect(await pending()).toBe(30);
    expect(JSON.parse((await cli(['operation', 'list', '-o', 'json'], opsEnv)).stdout).operations).toEqual(
      [],
    );
  });

  it('dry-runs, starts, watches to the end and lists an operation', async () => {
    const dry = await cli(
      ['operation', 'start', '--action', 'cancel', '--tag', 'team:cli', '--dry-run'],
      opsEnv,
    );
    expect([dry.code, dry.stdout.trim()]).toEqual([
      0,
      'would change 20 pending or running runs to cancel (dry run: nothing changed)',
    ]);
    expect(await pending()).toBe(30);
    // A last error's text narrows it: none of these pending runs has failed yet.
    const none = await cli(
      [
        'operation',
        'start',
        '--action',
        'cancel',
        '--tag',
        'team:cli',
        '--error-contains',
        'HTTP 503',
        '--dry-run',
      ],
      opsEnv,
    );
    expect([none.code, none.stdout.trim()]).toEqual([
      0,
      'would change 0 pending or running runs to cancel (dry run: nothing changed)',
    ]);

    const started = await cli(
      ['ops', 'start', '--action', 'cancel', '--tag', 'team:cli', '-o', 'json'],
      opsEnv,
    );
    expect(started.code, started.stderr).toBe(0);
    const op = JSON.parse(started.stdout) as { id: string; matched: number; state: string };
    expect(op).toMatchObject({ matched: 20, state: 'running' });

    // The reconciler's batches (its own code), 8 jobs each, while the CLI watches.
    const watching = cli(['operation', 'watch', op.id, '--interval', '100ms'], opsEnv);
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

    const listed = await cli(['operation', 'list'], opsEnv);
    expect(listed.stdout).toContain(op.id);
    expect(listed.stdout).toMatch(/cancel +tag team:cli +succeeded +20\/20/);
    const cancelLate = await cli(['operation', 'cancel', op.id], opsEnv);
    expect(cancelLate.code).toBe(1);
    expect(cancelLate.stderr).toMatch(/conflict/);
  });

  it('cancels a running operation: watch exits 1 when it ends cancelled', async () => {
    const started = await cli(
      ['ops', 'start', '--action', 'cancel', '--tag', 'team:other', '-o', 'json'],
      opsEnv,
    );
    const op = JSON.parse(started.stdout) as { id: string };
    const asked = await cli(['operation', 'cancel', op.id], opsEnv);
    expect([asked.code, asked.stdout.trim()]).toEqual([
      0,
      `${op.id}: running  0 of 10 done (0%), 0 failed, cancel asked`,
    ]);
    const owner = 'cli-test:2';
    await takeOperation(stack.db.pool, owner, 30_000);
    await runOperationBatch(stack.db.pool, op.id, owner, { batchSize: 8, ttlMs: 30_000 });
    const watched = await cli(['operation', 'watch', op.id], opsEnv);
    expect(watched.code).toBe(1);
    expect(watched.stdout).toMatch(/cancelled {2}0 of 10 done/);
    expect(await pending()).toBe(10);
  });
});
