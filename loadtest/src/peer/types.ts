import { createInterface } from 'node:readline';
import { type Child, spawnChild } from '../harness/processes.ts';
import type { Priority, RegisteredTask } from '../harness/workload.ts';

// What peak-vs-peers asks of a peer queue: the same burst of calls due at one second, added in its
// own fastest way, its workers calling the same sink; the processes it runs on, for the CPU
// accounting; and a stop. Every peer runs with the machine to itself (the others stopped).

export interface PeerRun {
  tasks: RegisteredTask[];
  /** The due instant, ms since the epoch. */
  due: number;
  addedInS: number;
}

export interface Peer {
  /** As reported ("graphile-worker, local queue"). */
  readonly name: string;
  /** The prefix of its metrics (`graphile_drain_s`). */
  readonly key: string;
  /** How it is set up and tuned, one line for the report's notes. */
  readonly setup: string;
  /** Adds `n` calls due at one second (chosen after timing the adds), 1 in 1/criticalShare critical. */
  addBurst(n: number, tenants: number, criticalShare: number): Promise<PeerRun>;
  /** Process kind → its pids now (read every second by the CPU meter). */
  cpuKinds(): Record<string, () => number[]>;
  stop(): Promise<void>;
}

/** One call of a burst: its task id (the sink's record), tenant and priority. */
export interface BurstCall {
  taskId: string;
  tenant: number;
  critical: boolean;
}

/** The same burst for every peer: task `${prefix}-${i}`, tenant i mod tenants, every Nth critical. */
export function burstCalls(prefix: string, n: number, tenants: number, criticalShare: number): BurstCall[] {
  const criticalEvery = criticalShare >= 1 ? 1 : Math.round(1 / criticalShare);
  return Array.from({ length: n }, (_, i) => ({
    taskId: `${prefix}-task-${i}`,
    tenant: i % tenants,
    critical: i % criticalEvery === 0,
  }));
}

/** The registered tasks the analysis expects, for a burst due at `due`. */
export function burstTasks(calls: readonly BurstCall[], due: number): RegisteredTask[] {
  return calls.map((c) => ({
    id: c.taskId,
    nextFireAt: due,
    plan: {
      tenant: c.tenant,
      priority: (c.critical ? 'critical' : 'normal') satisfies Priority,
      profile: 'fast',
      schedule: { type: 'once', at: due },
    },
  }));
}

/**
 * The due second for a burst of `n` adds at the rate a warm-up measured (`perMs` adds a ms): after
 * all of them with half again to spare, and at least 5 s away.
 */
export function dueAfterAdds(n: number, perMs: number): number {
  return Math.ceil((Date.now() + (n / Math.max(perMs, 1e-6)) * 1.5 + 5000) / 1000) * 1000;
}

/** Resolves at the first line a peer's worker process prints (it prints one when it is ready). */
export async function readyLine(child: Child, what: string): Promise<void> {
  const lines = createInterface({ input: child.process.stdout! });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not start (see ${child.name}'s log)`)), 60_000);
    lines.once('line', () => {
      clearTimeout(t);
      resolve();
    });
    void child.exited.then((code) => {
      clearTimeout(t);
      reject(new Error(`${what} exited (${code}) before it was ready (see ${child.name}'s log)`));
    });
  });
}

/**
 * Starts `n` worker processes of a peer (`${name}-${i}`, log in `logDir`), one after another, each
 * awaited until it prints its ready line; stdin piped, so they die with a killed harness.
 */
export async function startWorkerProcesses(
  name: string,
  command: string[],
  env: Record<string, string>,
  n: number,
  logDir: string,
): Promise<Child[]> {
  const started: Child[] = [];
  for (let i = 0; i < n; i++) {
    const child = spawnChild(`${name}-${i}`, command, {
      env: { ...(process.env as Record<string, string>), ...env },
      logFile: `${logDir}${name}-${i}.log`,
      pipeStdout: true,
      pipeStdin: true,
    });
    await readyLine(child, name);
    started.push(child);
  }
  return started;
}
