import { freePort } from '@dsched/testkit/ports';
import { PORT_VARIABLE, type ServiceName, serviceEntry } from '@dsched/testkit/services';
import { REPO_ROOT } from './paths.ts';
import { type Child, spawnChild } from './processes.ts';
import { pollUntil, sleep } from './wait.ts';

// The dsched services as real processes, several replicas each, supervised the way an
// orchestrator would: a process that exits on its own (e.g. a scheduler that lost MySQL for a
// lease TTL, as it must) is started again after a backoff, a bounded number of times. A process
// the harness kills on purpose stays down unless the fault asks for a restart.

export const SERVICES = ['task-api', 'job-api', 'scheduler', 'executor', 'reconciler', 'archiver'] as const;
export type { ServiceName };

/**
 * Process counts of a run's fleet (`--profile`). `ha`: every service replicated, as a production
 * fleet would be, so that every fault scenario has a survivor. `throughput`: one process of each,
 * for a peak on a small box, where every extra process is a claimer, a connection pool and an event
 * loop competing for the same cores (docs/performance.md). A scenario's own counts win over both.
 */
export const FLEET_PROFILES = {
  ha: { 'task-api': 2, 'job-api': 2, scheduler: 2, executor: 3, reconciler: 2, archiver: 2 },
  throughput: { 'task-api': 1, 'job-api': 1, scheduler: 1, executor: 1, reconciler: 1, archiver: 1 },
} as const satisfies Record<string, Record<ServiceName, number>>;
export type FleetProfile = keyof typeof FLEET_PROFILES;

export function isFleetProfile(name: string): name is FleetProfile {
  return Object.hasOwn(FLEET_PROFILES, name);
}

export interface FleetSpec {
  replicas: Record<ServiceName, number>;
  /** Environment of every service. */
  env: Record<string, string>;
  /** Extra environment of one instance (e.g. libfaketime for a scheduler); generation counts its starts from 1. */
  envFor?: (name: ServiceName, index: number, generation: number) => Record<string, string>;
  logDir: string;
  /** Restarts allowed per instance for exits the harness did not cause. */
  maxRestarts?: number;
}

export interface FleetEvent {
  at: number;
  what: string;
}

export class Instance {
  readonly name: ServiceName;
  readonly index: number;
  readonly port: number;
  generation = 0;
  restarts = 0;
  child: Child | undefined;
  /** Set while the harness holds it down on purpose. */
  held = false;

  constructor(name: ServiceName, index: number, port: number) {
    this.name = name;
    this.index = index;
    this.port = port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get id(): string {
    return `${this.name}-${this.index}.${this.generation}`;
  }

  running(): boolean {
    return this.child?.running() ?? false;
  }
}

export class Fleet {
  readonly spec: FleetSpec;
  readonly instances: Instance[] = [];
  readonly events: FleetEvent[] = [];
  #stopping = false;

  constructor(spec: FleetSpec) {
    this.spec = spec;
  }

  async start(readyTimeoutMs = 90_000): Promise<void> {
    for (const name of SERVICES) {
      for (let i = 0; i < this.spec.replicas[name]; i++)
        this.instances.push(new Instance(name, i, await freePort()));
    }
    for (const inst of this.instances) this.#spawn(inst);
    const notReady: string[] = [];
    await Promise.all(
      this.instances.map(async (inst) => {
        if (!(await this.waitReady(inst, readyTimeoutMs))) notReady.push(inst.id);
      }),
    );
    if (notReady.length > 0)
      throw new Error(
        `services not ready within ${readyTimeoutMs} ms: ${notReady.join(', ')} (logs in ${this.spec.logDir})`,
      );
  }

  of(name: ServiceName): Instance[] {
    return this.instances.filter((i) => i.name === name);
  }

  urls(name: 'task-api' | 'job-api'): string[] {
    return this.of(name).map((i) => i.url);
  }

  waitReady(inst: Instance, timeoutMs: number): Promise<boolean> {
    return pollUntil(
      async () => {
        if (!inst.running()) return false;
        const res = await fetch(`${inst.url}/readyz`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        return res.status === 200;
      },
      { timeoutMs, intervalMs: 200 },
    );
  }

  #spawn(inst: Instance): void {
    inst.generation++;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      LOG_LEVEL: 'warn',
      ...this.spec.env,
      ...(this.spec.envFor?.(inst.name, inst.index, inst.generation) ?? {}),
      INSTANCE_ID: inst.id,
      [PORT_VARIABLE[inst.name]]: String(inst.port),
    };
    const child = spawnChild(inst.id, [process.execPath, serviceEntry(inst.name)], {
      env,
      cwd: REPO_ROOT,
      logFile: `${this.spec.logDir}${inst.name}-${inst.index}.log`,
    });
    inst.child = child;
    void child.exited.then((code) => this.#onExit(inst, child, code));
  }

  #onExit(inst: Instance, child: Child, code: number | string): void {
    if (this.#stopping || inst.child !== child) return;
    if (inst.held) return;
    this.events.push({ at: Date.now(), what: `${inst.id} exited on its own (${code})` });
    if (inst.restarts >= (this.spec.maxRestarts ?? 30)) {
      this.events.push({ at: Date.now(), what: `${inst.id} not restarted: restart budget spent` });
      return;
    }
    inst.restarts++;
    const backoff = Math.min(8000, 500 * 2 ** Math.min(4, inst.restarts - 1));
    void sleep(backoff).then(() => {
      if (this.#stopping || inst.held || inst.running()) return;
      this.#spawn(inst);
      this.events.push({ at: Date.now(), what: `${inst.id} restarted after ${backoff} ms` });
    });
  }

  /** kill -9 (by default) one instance; with `restartAfterMs`, starts it again after that pause. */
  async kill(
    inst: Instance,
    options: { signal?: NodeJS.Signals; restartAfterMs?: number } = {},
  ): Promise<void> {
    const child = inst.child;
    if (!child?.running()) return;
    inst.held = true;
    const signal = options.signal ?? 'SIGKILL';
    this.events.push({ at: Date.now(), what: `${signal} ${inst.id}` });
    child.kill(signal);
    await child.exited;
    if (options.restartAfterMs === undefined) return;
    await sleep(options.restartAfterMs);
    await this.restart(inst);
  }

  async restart(inst: Instance): Promise<void> {
    if (inst.running()) await inst.child?.stop('SIGTERM', 10_000);
    inst.held = false;
    this.#spawn(inst);
    this.events.push({ at: Date.now(), what: `${inst.id} started` });
  }

  /** Starts one more instance of a service (after the run began). */
  async add(name: ServiceName): Promise<Instance> {
    const inst = new Instance(name, this.of(name).length, await freePort());
    this.instances.push(inst);
    this.#spawn(inst);
    this.events.push({ at: Date.now(), what: `${inst.id} added` });
    return inst;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.instances.map((i) => i.child?.stop('SIGTERM', 8_000)));
  }
}
