import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths.ts';
import { sleep } from './wait.ts';

const run = promisify(execFile);

// Vitess's Reshard workflow on the local cluster (scripts/vitess cluster), step by step, driven by
// its `ctl` (vtctldclient) for the `reshard` scenario: new tablets for the target shards, the schema
// copied to them, the workflow created (VReplication's copy, then its binary-log catch-up), VDiff,
// SwitchTraffic (reads, then the primaries' writes: the cut-over), Complete. Each step's time is
// kept. docs/vitess.md "Resharding" has the commands by hand.
//
// Two things the plain `Reshard create` does not survive on this cluster, found running it:
// - its schema copy verifies each target by comparing `SHOW CREATE TABLE` texts, and MySQL 9.7
//   prints a column's `CHARACTER SET utf8mb4` when the copy declared it and not when the migration
//   did (the same column): "CopySchemaShard was not successful because the schemas … differ",
//   after copying. So the schema is copied first with `CopySchemaShard --skip-verify` and the
//   workflow created with `--skip-schema-copy`.
// - the tablets are primaries only (no replica, no rdonly): the copy reads from PRIMARY, VDiff
//   compares primaries, and the reads (REPLICA, RDONLY) are switched, with nothing to move, before
//   the writes, as Complete wants every type switched.

export interface ReshardPlan {
  keyspace: string;
  workflow: string;
  sources: string[];
  targets: string[];
}

export interface VDiffResult {
  uuid: string;
  state: string;
  rowsCompared: number;
  hasMismatch: boolean;
  /** The tables whose rows differ, when any. */
  mismatched: string[];
}

/** `n` equal key ranges in Vitess's spelling (2: `-80`, `80-`; 4: `-40`, `40-80`, `80-c0`, `c0-`). */
export function equalShards(n: number): string[] {
  if (n < 1 || n > 256 || (n & (n - 1)) !== 0)
    throw new Error(`equalShards: ${n} is not a power of two ≤ 256`);
  if (n === 1) return ['0'];
  const hex = (i: number) => (i * (256 / n)).toString(16).padStart(2, '0');
  return Array.from({ length: n }, (_, i) => `${i === 0 ? '' : hex(i)}-${i === n - 1 ? '' : hex(i + 1)}`);
}

/** The last JSON document of a command's output (vtctldclient prints one, or a few in a row). */
export function lastJson<T>(out: string): T {
  const end = out.lastIndexOf('}');
  if (end < 0) throw new Error(`no JSON in: ${out.slice(0, 200)}`);
  let depth = 0;
  for (let i = end; i >= 0; i--) {
    const c = out[i];
    if (c === '}') depth++;
    else if (c === '{' && --depth === 0) return JSON.parse(out.slice(i, end + 1)) as T;
  }
  throw new Error(`unbalanced JSON in: ${out.slice(0, 200)}`);
}

interface StatusJson {
  /** Per table still being copied (empty once the copy phase is over). */
  table_copy_state?: Record<string, unknown>;
  shard_streams?: Record<string, { streams?: { status?: string; info?: string }[] }>;
  traffic_state?: string;
}

interface VDiffShowJson {
  State?: string;
  RowsCompared?: number;
  HasMismatch?: boolean;
  Reports?: Record<
    string,
    Record<string, { MismatchedRows?: number; ExtraRowsSource?: number; ExtraRowsTarget?: number }>
  >;
}

/**
 * The workflow's steps against the cluster that DSCHED_STACK_DIR and DSCHED_VITESS_CLUSTER_PORT
 * name in `env` (`scripts/vitess cluster`'s own variables). Each command runs as a child process,
 * awaited: the run's event loop (its sampler) goes on meanwhile.
 */
export class ReshardDriver {
  readonly plan: ReshardPlan;
  readonly #env: NodeJS.ProcessEnv;
  readonly #log: (msg: string) => void;

  constructor(plan: ReshardPlan, env: NodeJS.ProcessEnv, log: (msg: string) => void = () => undefined) {
    this.plan = plan;
    this.#env = { ...env };
    this.#log = log;
  }

  /** `scripts/vitess cluster ARGS…`; its stdout (rejects on a non-zero exit, with its stderr). */
  async script(args: string[], timeoutMs = 300_000): Promise<string> {
    try {
      const { stdout } = await run('bash', [`${REPO_ROOT}scripts/vitess`, 'cluster', ...args], {
        env: this.#env,
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (err) {
      const e = err as { stderr?: string; message?: string };
      throw new Error(
        `scripts/vitess cluster ${args.slice(0, 3).join(' ')}: ${(e.stderr || e.message || '').trim().slice(-600)}`,
      );
    }
  }

  ctl(args: string[], timeoutMs = 300_000): Promise<string> {
    return this.script(['ctl', ...args], timeoutMs);
  }

  #workflow(args: string[], timeoutMs?: number): Promise<string> {
    const { workflow, keyspace } = this.plan;
    return this.ctl(['Reshard', '--workflow', workflow, '--target-keyspace', keyspace, ...args], timeoutMs);
  }

  /** A tablet (and its mysqld) per target shard, each made its shard's primary; one at a time (uids). */
  async addTargetTablets(): Promise<void> {
    for (const shard of this.plan.targets) {
      await this.script(['tablet', this.plan.keyspace, shard], 180_000);
      this.#log(`tablet for ${this.plan.keyspace}/${shard} up`);
    }
  }

  /** The first source's schema onto every target, at once (unverified: see the top of this file). */
  async copySchema(): Promise<void> {
    const { keyspace, sources, targets } = this.plan;
    await Promise.all(
      targets.map((t) =>
        this.ctl(['CopySchemaShard', '--skip-verify', `${keyspace}/${sources[0]}`, `${keyspace}/${t}`]),
      ),
    );
  }

  /** The workflow: VReplication streams from the sources into each target, started. */
  async create(): Promise<void> {
    const { sources, targets } = this.plan;
    await this.#workflow([
      'create',
      `--source-shards=${sources.join(',')}`,
      `--target-shards=${targets.join(',')}`,
      '--tablet-types',
      'PRIMARY',
      '--skip-schema-copy',
    ]);
  }

  /** The streams' states (`Copying`, `Running`, …), the tables listed as still copying, the traffic state. */
  async status(): Promise<{ streams: string[]; copying: number; traffic: string }> {
    const s = lastJson<StatusJson>(await this.#workflow(['status', '--format', 'json']));
    const streams = Object.values(s.shard_streams ?? {}).flatMap((x) =>
      (x.streams ?? []).map((t) => t.status ?? '?'),
    );
    return { streams, copying: Object.keys(s.table_copy_state ?? {}).length, traffic: s.traffic_state ?? '' };
  }

  /**
   * Waits (bounded) until every stream has copied and runs on the binary log; false on timeout. A
   * new stream shows `Running` for a moment before its copy starts, so it takes no table left to
   * copy and three polls in a row, a second apart, with every stream `Running`.
   */
  async waitRunning(timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    let last = '';
    let steady = 0;
    while (Date.now() < until) {
      const { streams, copying } = await this.status();
      const now = `${streams.join(',')}${copying > 0 ? ` (${copying} tables copying)` : ''}`;
      if (now !== last) this.#log(`streams: ${now}`);
      last = now;
      if (streams.some((s) => s === 'Error')) throw new Error(`a Reshard stream failed: ${now}`);
      steady = streams.length > 0 && copying === 0 && streams.every((s) => s === 'Running') ? steady + 1 : 0;
      if (steady >= 3) return true;
      await sleep(1000);
    }
    return false;
  }

  /** VDiff of every table, sources against targets, waited for (bounded). */
  async vdiff(timeoutMs: number): Promise<VDiffResult> {
    const uuid = randomUUID();
    const base = ['VDiff', '--workflow', this.plan.workflow, '--target-keyspace', this.plan.keyspace];
    const until = Date.now() + timeoutMs;
    // Refused while a stream restarts ("not all streams are running"): asked again, a second apart.
    for (;;) {
      try {
        await this.ctl([...base, 'create', '--tablet-types', 'PRIMARY', '--auto-retry', uuid]);
        break;
      } catch (err) {
        if (!/not all streams are running/.test(String(err)) || Date.now() > until) throw err;
        await sleep(1000);
      }
    }
    let show: VDiffShowJson = {};
    while (Date.now() < until) {
      await sleep(2000);
      show = lastJson<VDiffShowJson>(await this.ctl([...base, 'show', uuid, '--format', 'json']));
      if (show.State === 'completed' || show.State === 'error') break;
    }
    const mismatched = Object.entries(show.Reports ?? {})
      .filter(([, shards]) =>
        Object.values(shards).some(
          (r) => (r.MismatchedRows ?? 0) + (r.ExtraRowsSource ?? 0) + (r.ExtraRowsTarget ?? 0) > 0,
        ),
      )
      .map(([table]) => table);
    return {
      uuid,
      state: show.State ?? 'unknown',
      rowsCompared: show.RowsCompared ?? 0,
      hasMismatch: show.HasMismatch ?? true,
      mismatched,
    };
  }

  /** Reads switched (no replica or rdonly tablet here: nothing moves), then the writes. */
  async switchReads(): Promise<void> {
    await this.#workflow(['switchtraffic', '--tablet-types', 'RDONLY,REPLICA']);
  }

  /**
   * The cut-over: the primaries' traffic moves to the targets (vtgate buffers what reaches the
   * shards meanwhile). Returns its start and end (ms since the epoch).
   */
  async switchWrites(): Promise<{ startedAt: number; endedAt: number }> {
    const startedAt = Date.now();
    await this.#workflow(['switchtraffic', '--tablet-types', 'PRIMARY', '--timeout', '60s'], 180_000);
    return { startedAt, endedAt: Date.now() };
  }

  /**
   * The workflow's end: its streams, the reverse streams and the routing rules removed, the source
   * shards dropped from the topology (their tablets keep running, serving nothing).
   */
  async complete(): Promise<void> {
    await this.#workflow(['complete']);
  }
}
