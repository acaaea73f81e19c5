import { mkdirSync, rmSync } from 'node:fs';
import { TEST_SECRETS_KEY } from '@dsched/testkit/secrets';
import type { Chart } from '../report/plot.ts';
import type { SinkProcess } from '../sink/client.ts';
import { SinkProcess as Sink } from '../sink/client.ts';
import type { SinkProfile } from '../sink/protocol.ts';
import { type Analysis, analyze, type Check } from './analyze.ts';
import { ApiClient, createTenant, type Tenant } from './api.ts';
import { type ClusterOptions, OwnCassandraCluster } from './cassandra-cluster.ts';
import { FLEET_PROFILES, Fleet, type FleetProfile, type FleetSpec, type ServiceName } from './fleet.ts';
import { type MachineState, machineState } from './machine.ts';
import { scratchDir } from './paths.ts';
import { adoptPidFile } from './processes.ts';
import { OwnReplicaSet, type ReplicaSetOptions } from './replication.ts';
import {
  ensureSharedStack,
  freshHistory,
  freshStores,
  type HistoryCluster,
  OwnMariadb,
  SHARED_CASSANDRA,
  SHARED_MYSQL,
  type Stores,
  storeName,
} from './stack.ts';
import { StoresView } from './stores-view.ts';
import { type Topology, VitessCluster } from './vitess-cluster.ts';
import { pollUntil, sleep } from './wait.ts';
import {
  expectedOccurrences,
  type RegisteredTask,
  type Registration,
  registerTasks,
  type TaskPlan,
} from './workload.ts';

// One run of one scenario: the stack, fresh stores, the sink, the services, the tenants; then
// registration, the fault the scenario drives, the drain, and the final accounting.

export const ADMIN_TOKEN = 'loadtest-admin-token-0123456789';

/**
 * Service settings of every run. Leases and intervals are shortened so that recovery paths
 * (lease expiry, reconciler) finish within a run; the loopback allow-list lets the executor call
 * the sink (the SSRF guard refuses loopback otherwise).
 */
export const SERVICE_ENV: Record<string, string> = {
  DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
  DSCHED_SECRETS_KEY: TEST_SECRETS_KEY,
  EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
  EXECUTOR_LEASE_S: '15',
  RECONCILER_INTERVAL_MS: '1000',
  ARCHIVER_INTERVAL_MS: '500',
};

export const DEFAULT_REPLICAS: Record<ServiceName, number> = FLEET_PROFILES.ha;

export interface RunOptions {
  scenario: string;
  /** Scale knobs a scenario may read (tasks, minutes, ...). */
  knobs: Record<string, number>;
  /** Extra service environment from the command line (wins over the scenario's). */
  env: Record<string, string>;
  concurrency: number;
  /** Prefix of the run's database/keyspace name. */
  storePrefix?: string;
  /** The fleet's process counts (default `ha`). */
  profile?: FleetProfile;
  /** `vitess`: MySQL is the local Vitess cluster (vitess-cluster.ts); default `single`. */
  topology?: Topology;
  log: (msg: string) => void;
}

export interface StartSpec {
  tenants: number;
  quotas?: (index: number) => { maxConcurrency?: number };
  profiles: Record<string, SinkProfile>;
  replicas?: Partial<Record<ServiceName, number>>;
  env?: Record<string, string>;
  envFor?: FleetSpec['envFor'];
  ownMariadb?: boolean;
  /** More options for the own mariadbd (ownMariadb only): db-profile.ts's. */
  ownMariadbArgs?: string[];
  /** A primary and a replica of the run's own behind a front-door relay (mysql-failover). */
  ownReplicaSet?: ReplicaSetOptions;
  /** History on a Cassandra cluster of the run's own, replicated 3 times (cassandra-node-down). */
  ownCassandra?: ClusterOptions;
}

/**
 * FAIL when a check failed that is not an expected cost; EXPECTED-LOSS when every failed check is
 * one (with the costs, once each); INCOMPLETE when all passed but a check could not be made; PASS.
 */
export function verdictOf(
  checks: Check[],
  incomplete: boolean,
): { verdict: RunResult['verdict']; costs: string[] } {
  const failed = checks.filter((c) => !c.ok);
  const costs = [...new Set(failed.flatMap((c) => (c.expectedCost ? [c.expectedCost] : [])))];
  if (failed.some((c) => !c.expectedCost)) return { verdict: 'FAIL', costs };
  if (costs.length > 0) return { verdict: 'EXPECTED-LOSS', costs };
  return { verdict: incomplete ? 'INCOMPLETE' : 'PASS', costs };
}

export interface Sample {
  t: number;
  calls: number;
  effects: number;
  inFlight: number;
  pending: number;
  running: number;
  finished: number;
}

export interface RunResult {
  scenario: string;
  /** EXPECTED-LOSS: every failed check is an `expectedCost` of the configuration (analyze.ts). */
  verdict: 'PASS' | 'FAIL' | 'INCOMPLETE' | 'EXPECTED-LOSS';
  headline: string;
  metrics: Record<string, number>;
  checks: Check[];
  analysis: Analysis;
  samples: Sample[];
  timeline: { t: number; what: string }[];
  notes: string[];
  machine: { before: MachineState; after: MachineState };
  registration: { tasks: number; seconds: number; perSecond: number };
  sink: { cpuMs: number; usPerCall: number; elu: number; eluMax1s: number };
  originMs: number;
  /** Plots of the scenario's own, beside the standard ones (name → chart). */
  charts?: Record<string, Chart>;
  /** Peer systems' runs of the same workload, when the scenario has them. */
  peers?: { name: string; analysis: Analysis; originMs: number }[];
}

export class Run {
  readonly opts: RunOptions;
  readonly scratch: string;
  readonly notes: string[] = [];
  readonly timeline: { at: number; what: string }[] = [];
  readonly samples: Sample[] = [];
  readonly cancelled = new Map<string, { at: number; confirmed: boolean }>();
  readonly tasks: RegisteredTask[] = [];
  readonly extraChecks: Check[] = [];
  /** Checks that could not run because a feature is not on this branch yet. */
  readonly missing: string[] = [];
  /** Tasks calling a target other than the sink (see AnalysisInput.outsideSink). */
  readonly outsideSink = new Set<string>();
  /** What a scenario started beside the fleet (a TCP relay, a target), stopped at teardown. */
  readonly cleanups: (() => Promise<void>)[] = [];
  stores!: Stores;
  view!: StoresView;
  sink!: SinkProcess;
  fleet!: Fleet;
  taskApi!: ApiClient;
  jobApi!: ApiClient;
  tenants: Tenant[] = [];
  ownMariadb: OwnMariadb | undefined;
  replicaSet: OwnReplicaSet | undefined;
  cassandraCluster: OwnCassandraCluster | undefined;
  /** The local Vitess cluster the run is on (topology `vitess`): ports, pids, ctl, tablets. */
  vitess: VitessCluster | undefined;
  registration: Registration | undefined;
  #machineBefore: MachineState = machineState();
  #sampler: NodeJS.Timeout | undefined;
  #windowEndMs = Number.POSITIVE_INFINITY;

  constructor(opts: RunOptions) {
    this.opts = opts;
    // A run with a store prefix of its own (the CI smokes) has its own scratch too: a run adopts
    // the pid file of its scratch and kills what it lists, which must never be another run's fleet.
    this.scratch = scratchDir(opts.storePrefix ? `${opts.scenario}-${opts.storePrefix}` : opts.scenario);
  }

  log(msg: string): void {
    this.opts.log(msg);
  }

  /** The machine as the run found it (load, memory), for a scenario that builds its own result. */
  get machineBefore(): MachineState {
    return this.#machineBefore;
  }

  mark(what: string): void {
    this.timeline.push({ at: Date.now(), what });
    this.log(what);
  }

  knob(name: string, fallback: number): number {
    return this.opts.knobs[name] ?? fallback;
  }

  async start(spec: StartSpec): Promise<void> {
    rmSync(`${this.scratch}logs`, { recursive: true, force: true });
    mkdirSync(`${this.scratch}logs`, { recursive: true });
    adoptPidFile(`${this.scratch}pids.json`);
    this.#machineBefore = machineState();
    this.log('stack: shared MariaDB and Cassandra (scripts/stack up)');
    ensureSharedStack();
    let server = SHARED_MYSQL;
    if (this.opts.topology === 'vitess') {
      if (spec.ownMariadb || spec.ownReplicaSet)
        throw new Error(`${this.opts.scenario} runs a MySQL server of its own: not on the Vitess topology`);
      const started = Date.now();
      this.vitess = new VitessCluster();
      this.vitess.up();
      this.log(
        `Vitess cluster (scripts/vitess cluster, port base ${this.vitess.basePort}): vtgate 127.0.0.1:${this.vitess.vtgatePort}, ${this.vitess
          .tablets()
          .map((t) => `${t.keyspace}/${t.shard}`)
          .join(', ')}, up in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      this.notes.push(
        `topology: Vitess cluster, tablets ${this.vitess
          .tablets()
          .map((t) => `${t.keyspace}/${t.shard}`)
          .join(', ')}`,
      );
    }
    if (spec.ownMariadb) {
      this.ownMariadb = await OwnMariadb.start(
        `${this.scratch}mariadb`,
        `${this.scratch}logs/mariadbd.log`,
        spec.ownMariadbArgs,
      );
      server = this.ownMariadb.url;
      this.log(`own mariadbd on 127.0.0.1:${this.ownMariadb.port} (data in ${this.ownMariadb.dir})`);
    }
    if (spec.ownReplicaSet) {
      rmSync(`${this.scratch}replication`, { recursive: true, force: true });
      const set = await OwnReplicaSet.start(
        `${this.scratch}replication/`,
        `${this.scratch}logs/`,
        spec.ownReplicaSet,
      );
      this.replicaSet = set;
      server = set.url;
      this.log(
        `own ${spec.ownReplicaSet.engine === 'mysql' ? 'MySQL 9.7' : 'MariaDB'} primary 127.0.0.1:${set.primary.port} and replica 127.0.0.1:${set.replica.port} (${spec.ownReplicaSet.semiSync ? 'semi-sync AFTER_SYNC' : 'asynchronous'}, link +${spec.ownReplicaSet.linkDelayMs} ms each way); services and harness through the front door 127.0.0.1:${set.front.port}`,
      );
    }
    let history: HistoryCluster = SHARED_CASSANDRA;
    if (spec.ownCassandra) {
      rmSync(`${this.scratch}cassandra`, { recursive: true, force: true });
      const started = Date.now();
      const cluster = await OwnCassandraCluster.start(
        `${this.scratch}cassandra/`,
        `${this.scratch}logs/`,
        spec.ownCassandra,
      );
      this.cassandraCluster = cluster;
      const replicas = Math.min(3, spec.ownCassandra.nodes);
      history = {
        contactPoints: cluster.contactPoints,
        replication: `{'class': 'NetworkTopologyStrategy', 'datacenter1': ${replicas}}`,
      };
      this.log(
        `own Cassandra cluster ${cluster.contactPoints.join(', ')} (heap ${spec.ownCassandra.heap} each, replication factor ${replicas}, hints ${spec.ownCassandra.hints ? 'on' : 'off'}), up in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    const name = storeName(this.opts.scenario, this.opts.storePrefix);
    if (this.vitess) {
      const databaseUrl = await this.vitess.freshStores();
      await freshHistory(name, history);
      this.stores = { databaseUrl, keyspace: name };
    } else this.stores = await freshStores(server, name, history);
    this.view = new StoresView(this.stores.databaseUrl, this.stores.keyspace, {
      unprofiled: (spec.ownMariadbArgs?.length ?? 0) > 0,
      cassandra: history.contactPoints,
    });
    this.log(
      this.vitess
        ? `stores: keyspaces dsched and dsched_global migrated through vtgate and emptied; history keyspace ${name}`
        : `stores: database and keyspace ${name}, freshly migrated`,
    );
    this.sink = await Sink.start(`${this.scratch}logs/sink.log`);
    this.fleet = new Fleet({
      replicas: { ...FLEET_PROFILES[this.opts.profile ?? 'ha'], ...spec.replicas },
      env: {
        DATABASE_URL: this.stores.databaseUrl,
        CASSANDRA_CONTACT_POINTS: history.contactPoints.join(','),
        CASSANDRA_KEYSPACE: this.stores.keyspace,
        ...(this.vitess ? this.vitess.serviceEnv() : {}),
        ...SERVICE_ENV,
        ...spec.env,
        ...this.opts.env,
      },
      ...(spec.envFor ? { envFor: spec.envFor } : {}),
      logDir: `${this.scratch}logs/`,
    });
    await this.fleet.start();
    const counts = this.fleet.instances.reduce<Record<string, number>>((m, i) => {
      m[i.name] = (m[i.name] ?? 0) + 1;
      return m;
    }, {});
    if (this.opts.profile && this.opts.profile !== 'ha')
      this.notes.push(`fleet profile: ${this.opts.profile}`);
    this.log(
      `services up (profile ${this.opts.profile ?? 'ha'}): ${Object.entries(counts)
        .map(([n, c]) => `${c} ${n}`)
        .join(', ')}`,
    );
    this.taskApi = new ApiClient(() => this.fleet.urls('task-api'));
    this.jobApi = new ApiClient(() => this.fleet.urls('job-api'));
    for (let i = 0; i < spec.tenants; i++)
      this.tenants.push(await createTenant(this.taskApi, ADMIN_TOKEN, i, spec.quotas?.(i) ?? {}));
    await this.sink.configure({
      profiles: spec.profiles,
      tenantKeys: Object.fromEntries(this.tenants.map((t) => [t.index, t.apiKey])),
      jobApiUrls: this.fleet.urls('job-api'),
    });
    this.#startSampler();
  }

  /**
   * Registers warm-up tasks due in a day (never due during the run) and returns tasks per second:
   * a first batch warms the APIs up (JIT, pools), the second is timed.
   */
  async calibrate(n = 300): Promise<number> {
    const far = Date.now() + 86_400_000;
    const batch = (size: number, prefix: string) =>
      registerTasks(
        this.taskApi,
        this.tenants,
        Array.from({ length: size }, (_, i) => ({
          tenant: i % this.tenants.length,
          priority: 'normal' as const,
          profile: 'fast',
          schedule: { type: 'once' as const, at: far },
        })),
        { sinkBase: this.sink.url, concurrency: this.opts.concurrency, namePrefix: prefix },
      );
    await batch(200, 'warmup');
    const reg = await batch(n, 'calibration');
    this.log(`calibration: ${n} tasks registered at ${reg.perSecond.toFixed(0)}/s`);
    return reg.perSecond;
  }

  async register(plans: TaskPlan[]): Promise<Registration> {
    // The sink's counters (CPU, event-loop use) start here, not at its process start.
    if (this.tasks.length === 0) await this.sink.reset();
    this.mark(`registering ${plans.length} tasks (${this.opts.concurrency} requests in flight)`);
    const reg = await registerTasks(this.taskApi, this.tenants, plans, {
      sinkBase: this.sink.url,
      concurrency: this.opts.concurrency,
    });
    this.tasks.push(...reg.tasks);
    this.registration = reg;
    this.mark(
      `registered ${plans.length} tasks in ${((reg.finishedAt - reg.startedAt) / 1000).toFixed(1)} s (${reg.perSecond.toFixed(0)}/s)`,
    );
    return reg;
  }

  #startSampler(): void {
    let busy = false;
    this.#sampler = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        const t = Date.now();
        const s = await this.sink.stats().catch(() => undefined);
        const p = await this.view.progress(new Date(Math.min(t, this.#windowEndMs))).catch(() => undefined);
        const by = p?.byState ?? {};
        this.samples.push({
          t,
          calls: s?.calls ?? Number.NaN,
          effects: s?.effects ?? Number.NaN,
          inFlight: s?.inFlight ?? Number.NaN,
          pending: p ? (by.pending ?? 0) : Number.NaN,
          running: p ? (by.running ?? 0) : Number.NaN,
          finished: p ? (by.succeeded ?? 0) + (by.dead ?? 0) + (by.cancelled ?? 0) : Number.NaN,
        });
      })().finally(() => {
        busy = false;
      });
    }, 1000);
  }

  /** Waits until the sink has applied `n` effects (bounded). */
  async waitEffects(n: number, timeoutMs: number): Promise<boolean> {
    return pollUntil(async () => (await this.sink.stats()).effects >= n, { timeoutMs, intervalMs: 100 });
  }

  /**
   * Waits until the window is done: the stores show nothing left to do in it (no pending or
   * running job, no task still due) three polls running. Every effect seen at the sink is not
   * enough: a job whose effect was applied may still be given back and run again.
   */
  async drain(windowEndMs: number, timeoutMs: number): Promise<boolean> {
    this.#windowEndMs = windowEndMs;
    const waitForWindow = windowEndMs - Date.now();
    if (waitForWindow > 0) await sleep(waitForWindow);
    let quiet = 0;
    const done = await pollUntil(
      async () => {
        const p = await this.view.progress(new Date(windowEndMs));
        const live = (p.byState.pending ?? 0) + (p.byState.running ?? 0);
        quiet = live === 0 && p.unmaterialised === 0 ? quiet + 1 : 0;
        return quiet >= 3;
      },
      { timeoutMs, intervalMs: 300 },
    );
    this.mark(done ? 'drained' : `not drained within ${timeoutMs / 1000} s`);
    if (!done) this.notes.push(`the window did not drain within ${timeoutMs / 1000} s`);
    return done;
  }

  /** Waits (bounded) for the archiver to move what it will, so history is checked too. */
  async settleArchive(timeoutMs = 30_000, windowEndMs = this.#windowEndMs): Promise<boolean> {
    return pollUntil(
      async () => {
        const p = await this.view.progress(new Date(windowEndMs));
        return (p.byState.succeeded ?? 0) + (p.byState.cancelled ?? 0) === 0;
      },
      { timeoutMs, intervalMs: 500 },
    );
  }

  async finish(
    originMs: number,
    windowEndMs: number,
    headline: (m: Record<string, number>) => string,
  ): Promise<RunResult> {
    this.#windowEndMs = windowEndMs;
    await this.settleArchive();
    if (this.#sampler) clearInterval(this.#sampler);
    const stats = await this.sink.stats();
    const records = await this.sink.records();
    const jobs = await this.view.allJobs();
    const expected = expectedOccurrences(this.tasks, windowEndMs);
    const analysis = analyze({
      expected,
      windowEndMs,
      records,
      jobs,
      cancelled: this.cancelled,
      originMs,
      outsideSink: this.outsideSink,
    });
    const checks = [...analysis.checks, ...this.extraChecks];
    const metrics: Record<string, number> = {
      ...analysis.metrics,
      sink_us_per_call: Number(((stats.cpuMs * 1000) / Math.max(1, stats.calls)).toFixed(1)),
      sink_elu_max: Number(stats.eluMax1s.toFixed(2)),
      restarts: this.fleet.events.filter((e) => e.what.includes('restarted')).length,
    };
    for (const e of this.fleet.events) this.timeline.push({ at: e.at, what: e.what });
    this.timeline.sort((a, b) => a.at - b.at);
    const reg = this.registration;
    return {
      scenario: this.opts.scenario,
      verdict: 'INCOMPLETE',
      headline: headline(metrics),
      metrics,
      checks,
      analysis,
      samples: this.samples,
      timeline: this.timeline.map((e) => ({ t: (e.at - originMs) / 1000, what: e.what })),
      notes: this.notes,
      machine: { before: this.#machineBefore, after: machineState() },
      registration: {
        tasks: reg?.tasks.length ?? 0,
        seconds: reg ? (reg.finishedAt - reg.startedAt) / 1000 : 0,
        perSecond: reg?.perSecond ?? 0,
      },
      sink: {
        cpuMs: stats.cpuMs,
        usPerCall: metrics.sink_us_per_call ?? 0,
        elu: stats.elu,
        eluMax1s: stats.eluMax1s,
      },
      originMs,
    };
  }

  /**
   * The verdict, once the scenario added its own checks: FAIL when any check failed that is not
   * an expected cost, EXPECTED-LOSS when every failed check is one (the run shows what its
   * configuration is known to lose), INCOMPLETE when everything checked passed but a feature a
   * check needs is not on this branch yet.
   */
  judge(result: RunResult): RunResult {
    for (const m of this.missing) result.notes.push(`not checked (not on this branch yet): ${m}`);
    const { verdict, costs } = verdictOf(result.checks, this.missing.length > 0);
    for (const cost of costs) result.notes.push(`expected loss: ${cost}`);
    result.verdict = verdict;
    return result;
  }

  /** Stops everything this run started; safe to call twice and after a failure. */
  async teardown(): Promise<void> {
    if (this.#sampler) clearInterval(this.#sampler);
    await this.fleet?.stop().catch(() => undefined);
    await this.sink?.stop().catch(() => undefined);
    await this.view?.close().catch(() => undefined);
    await this.taskApi?.close().catch(() => undefined);
    await this.jobApi?.close().catch(() => undefined);
    await this.ownMariadb?.down('term').catch(() => undefined);
    await this.replicaSet?.stop().catch(() => undefined);
    await this.cassandraCluster?.stop().catch(() => undefined);
    for (const cleanup of this.cleanups.splice(0)) await cleanup().catch(() => undefined);
  }
}
