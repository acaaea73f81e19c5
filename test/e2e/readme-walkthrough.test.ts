import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import { REPO_ROOT } from '@dsched/testkit/names';
import { freePort } from '@dsched/testkit/ports';
import { type Finished, runToEnd } from '@dsched/testkit/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's walk-through, as a newcomer runs it: `./scripts/up.sh`, then every ```sh block of
// "A walk-through" pasted in order into a new login shell with an empty environment
// (`env -i ... bash -l`), against the platform up.sh started (six services as processes, the real
// MariaDB and Cassandra). What the test changes in the blocks, and only that: the key placeholder
// becomes the key up.sh printed, and the ports and run directory become this test's own, so a
// second checkout (or the developer's own up.sh) on the machine never collides with it. The login
// shell gets HOME (a fresh directory: the README's `context add` must not write the developer's
// config) and the two URL variables for those ports; PATH comes from /etc/profile and the line
// up.sh added to ~/.profile, nothing else.

const README_PATH = `${REPO_ROOT}README.md`;
const UP = `${REPO_ROOT}scripts/up.sh`;

/** The ```sh blocks of the README section whose heading starts with `heading`. */
function sectionBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`README has no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Applies each replacement; each must apply somewhere, so a README that moved on fails here. */
function rewrite(blocks: string[], replacements: Array<[string, string]>): string[] {
  for (const [from] of replacements) {
    expect(
      blocks.some((b) => b.includes(from)),
      `the walk-through no longer contains ${from}`,
    ).toBe(true);
  }
  return blocks.map((b) => replacements.reduce((text, [from, to]) => text.split(from).join(to), b));
}

/**
 * What the README shows a command printing, as comment lines after it: the CLI's `# error: ...`
 * or an API body `# {...}`, with indented `#   ...` continuation lines. Those commands are the
 * ones expected to fail (the README says the CLI exits 2 on a bad request).
 */
function shownOutputs(block: string): { command: string; lines: string[] }[] {
  const lines = block.split('\n');
  const shown: { command: string; lines: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^# (error:|\{)/.test(lines[i]!)) continue;
    let c = i - 1;
    while (c > 0 && lines[c - 1]!.endsWith('\\')) c--;
    const out: string[] = [];
    for (let j = i; j < lines.length && (j === i || /^# {3}/.test(lines[j]!)); j++)
      out.push(lines[j]!.slice(1).trim());
    shown.push({ command: lines[c]!, lines: out });
  }
  return shown;
}

const run = (command: string, args: string[], env: NodeJS.ProcessEnv, input = '') =>
  runToEnd(command, args, { cwd: REPO_ROOT, env, input });

describe('the README walk-through, verbatim in a new login shell', () => {
  let db: TestDatabase;
  let ks: TestKeyspace;
  let home: string;
  let upEnv: Record<string, string>;
  let reaper: ChildProcess;
  let up: Finished;
  const ports = { taskApi: 0, jobApi: 0, demo: 0 };

  beforeAll(async () => {
    [db, ks] = await Promise.all([createTestDatabase(import.meta.url), createTestKeyspace(import.meta.url)]);
    home = await mkdtemp(join(tmpdir(), 'dsched-readme-'));
    const [taskApi, jobApi, demo, ...metrics] = await Promise.all(
      Array.from({ length: 7 }, () => freePort()),
    );
    Object.assign(ports, { taskApi, jobApi, demo });
    // up.sh runs in the runner's environment (a user's, with its proxies and CA certificates), less
    // what belongs to the runner itself, and with a fresh HOME.
    const inherited = Object.entries(process.env).filter(
      (e): e is [string, string] =>
        e[1] !== undefined && !/^(VITEST|NODE_OPTIONS$|DSCHED_(KEY|TASK_API|JOB_API|CONTEXT)$)/.test(e[0]),
    );
    upEnv = {
      ...Object.fromEntries(inherited),
      HOME: home,
      // The Node and pnpm already installed for this checkout (up.sh would install them again
      // under the fresh HOME otherwise).
      DSCHED_CACHE: process.env.DSCHED_CACHE ?? join(homedir(), '.cache', 'dsched'),
      npm_config_store_dir: execFileSync('pnpm', ['store', 'path'], { encoding: 'utf8' }).trim(),
      DATABASE_URL: db.url,
      CASSANDRA_KEYSPACE: ks.keyspace,
      TASK_API_PORT: String(taskApi),
      JOB_API_PORT: String(jobApi),
      DEMO_TARGET_PORT: String(demo),
      SCHEDULER_METRICS_PORT: String(metrics[0]),
      EXECUTOR_METRICS_PORT: String(metrics[1]),
      RECONCILER_METRICS_PORT: String(metrics[2]),
      ARCHIVER_METRICS_PORT: String(metrics[3]),
      DSCHED_RUN_DIR: join(home, 'run'),
      DSCHED_BIN_DIR: join(home, '.local', 'bin'),
    };
    // up.sh's services outlive it (setsid): if this runner dies without its afterAll, this stops them.
    reaper = spawn(
      'sh',
      ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; exec bash "${UP}" down`],
      { env: upEnv, detached: true, stdio: 'ignore' },
    );
    reaper.unref();
    up = await run('bash', [UP], upEnv);
  }, 600_000);

  afterAll(async () => {
    if (upEnv) await run('bash', [UP, 'down'], upEnv);
    reaper?.kill();
    await db?.close();
    await ks?.close();
  }, 120_000);

  it('up.sh starts the platform and puts dsched on the login PATH', async () => {
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toMatch(/export DSCHED_KEY=dsk_\S+/);
    // ~/.local/bin is not on a bare login PATH: up.sh said what it added to ~/.profile.
    expect(up.stderr).toContain(`added to ${home}/.profile`);
    expect(await readFile(join(home, '.profile'), 'utf8')).toContain(join(home, '.local', 'bin'));
  });

  it('runs every block of the walk-through as written', async () => {
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const key = /export DSCHED_KEY=(dsk_\S+)/.exec(up.stdout)![1]!;
    const readme = await readFile(README_PATH, 'utf8');
    const blocks = rewrite(sectionBlocks(readme, 'A walk-through'), [
      ['DSCHED_KEY=dsk_...', `DSCHED_KEY=${key}`],
      ['127.0.0.1:8080', `127.0.0.1:${ports.taskApi}`],
      ['127.0.0.1:8081', `127.0.0.1:${ports.jobApi}`],
      ['127.0.0.1:8090', `127.0.0.1:${ports.demo}`],
      ['.stack/run/', `${join(home, 'run')}/`],
    ]);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const shown = blocks.flatMap(shownOutputs);
    // The CLI exits 2 on a bad request (the README says so); curl prints the body and exits 0.
    const expectedFailures = shown.map((s) => s.command).filter((c) => c.startsWith('dsched '));
    expect(expectedFailures.length).toBeGreaterThan(0);

    // The harness around the blocks: a marker per failed command (its status and text), the
    // launcher the shell resolved, and an end marker proving the last block ran.
    const script = [
      'set -o pipefail',
      `trap 'echo "::failed $? :: $BASH_COMMAND" >&2' ERR`,
      'echo "::dsched $(command -v dsched)"',
      ...blocks,
      'echo "::end"',
    ].join('\n');
    const shell = await run(
      'env',
      [
        '-i',
        `HOME=${home}`,
        `DSCHED_TASK_API=http://127.0.0.1:${ports.taskApi}`,
        `DSCHED_JOB_API=http://127.0.0.1:${ports.jobApi}`,
        'bash',
        '-l',
        '-s',
      ],
      {},
      script,
    );
    const output = `${shell.stdout}\n${shell.stderr}`;
    expect(shell.stdout, output).toContain('::end');
    expect(shell.stdout).toContain(`::dsched ${join(home, '.local', 'bin', 'dsched')}`);

    // The only failures are the ones the README shows failing, each with its exit code 2 and
    // what the README says it prints.
    const failures = [...shell.stderr.matchAll(/^::failed (\d+) :: (.*)$/gm)].map((m) => ({
      code: Number(m[1]),
      command: m[2]!,
    }));
    const words = (command: string) => command.trim().split(/\s+/).join(' ');
    expect(
      failures.map((f) => words(f.command)),
      output,
    ).toEqual(expectedFailures.map(words));
    for (const f of failures) expect(f.code).toBe(2);
    for (const line of shown.flatMap((s) => s.lines)) expect(output).toContain(line);

    // The demo target's last call, as `tail -n 1` printed it: signed with the tenant's secret.
    // (curl's bodies end without a newline, so a line may begin after one.)
    const calls = [...shell.stdout.matchAll(/\{"at":"[^"]+","method":.*$/gm)].map((m) => m[0]);
    expect(calls.length, output).toBeGreaterThan(0);
    const call = JSON.parse(calls.at(-1)!);
    expect(call.signatureValid).toBe(true);
    expect(call.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});
