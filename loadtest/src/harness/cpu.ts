import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// CPU time per process kind over a window, from /proc/<pid>/stat (utime + stime, the kernel's own
// accounting: what a process cost, whatever it was waiting on). Processes are named by kind
// (executor, mariadb, redis, ...); one that starts inside the window counts from its start, one
// that ends inside it counts up to the last reading. Linux only, like the rest of the harness.

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of a process in ms, or undefined when it is gone. */
export function processCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
}

/** Pids whose command line contains `needle` (e.g. the shared mariadbd, Cassandra's JVM). */
export function pidsMatching(needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes(needle) && Number(entry) !== process.pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export type PidSource = () => number[];

/** Measures the CPU each kind of process spent between start() and stop(). */
export class CpuMeter {
  readonly #kinds: Record<string, PidSource>;
  readonly #first = new Map<number, number>();
  readonly #last = new Map<number, { kind: string; ms: number }>();
  #startedAt = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(kinds: Record<string, PidSource>) {
    this.#kinds = kinds;
  }

  start(): void {
    this.#startedAt = Date.now();
    this.#read(true);
    // Readings every second, so a process killed or restarted in the window keeps what it spent.
    this.#timer = setInterval(() => this.#read(false), 1000);
    this.#timer.unref();
  }

  /** CPU ms per kind, and the window's length in ms. */
  stop(): { byKind: Record<string, number>; windowMs: number } {
    if (this.#timer) clearInterval(this.#timer);
    this.#read(false);
    const byKind: Record<string, number> = {};
    for (const kind of Object.keys(this.#kinds)) byKind[kind] = 0;
    for (const [pid, { kind, ms }] of this.#last)
      byKind[kind] = (byKind[kind] ?? 0) + ms - (this.#first.get(pid) ?? 0);
    return { byKind, windowMs: Date.now() - this.#startedAt };
  }

  #read(first: boolean): void {
    for (const [kind, pids] of Object.entries(this.#kinds)) {
      for (const pid of pids()) {
        const ms = processCpuMs(pid);
        if (ms === undefined) continue;
        // A pid first seen after start() began inside the window: it counts from zero.
        if (!this.#first.has(pid)) this.#first.set(pid, first ? ms : 0);
        this.#last.set(pid, { kind, ms });
      }
    }
  }
}
