import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';

// A CPU cgroup of the harness's own (cgroup v1: the `cpu` controller for a quota, `cpuacct` for
// what its processes spent), for runs that hold a process group to a fixed share of the machine
// (shard-linearity: each shard's mysqld + vttablet). Needs root and the v1 hierarchies mounted at
// /sys/fs/cgroup/cpu and /sys/fs/cgroup/cpuacct. Processes are moved in whole (cgroup.procs moves
// every thread) and moved back to the root group by `remove`.

const CPU = '/sys/fs/cgroup/cpu';
const ACCT = '/sys/fs/cgroup/cpuacct';
const PERIOD_US = 100_000;

export function cgroupsAvailable(): boolean {
  return existsSync(`${CPU}/cgroup.procs`) && existsSync(`${ACCT}/cpuacct.usage`);
}

export interface CpuGroupReading {
  /** CPU its processes spent (cpuacct.usage), ms. */
  usageMs: number;
  /** Periods in which the quota stopped them, and for how long (cpu.stat). */
  throttledPeriods: number;
  throttledMs: number;
  periods: number;
}

export class CpuGroup {
  readonly name: string;
  /** The quota in thousandths of a core (1000: one core), or undefined for none. */
  readonly millicores: number | undefined;

  private constructor(name: string, millicores: number | undefined) {
    this.name = name;
    this.millicores = millicores;
  }

  /** Creates (or takes over) the group `name` in both hierarchies and sets its quota. */
  static create(name: string, millicores?: number): CpuGroup {
    if (!/^[a-z][a-z0-9-]{0,40}$/.test(name)) throw new Error(`unsafe cgroup name ${name}`);
    for (const root of [CPU, ACCT]) mkdirSync(`${root}/${name}`, { recursive: true });
    writeFileSync(`${CPU}/${name}/cpu.cfs_period_us`, String(PERIOD_US));
    writeFileSync(
      `${CPU}/${name}/cpu.cfs_quota_us`,
      millicores === undefined ? '-1' : String(Math.round((millicores * PERIOD_US) / 1000)),
    );
    return new CpuGroup(name, millicores);
  }

  /** Moves processes (all their threads) into the group. */
  add(pids: number[]): void {
    for (const pid of pids)
      for (const root of [CPU, ACCT]) writeFileSync(`${root}/${this.name}/cgroup.procs`, String(pid));
  }

  pids(): number[] {
    return readFileSync(`${CPU}/${this.name}/cgroup.procs`, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(Number);
  }

  read(): CpuGroupReading {
    const stat = Object.fromEntries(
      readFileSync(`${CPU}/${this.name}/cpu.stat`, 'utf8')
        .split('\n')
        .filter((l) => l.includes(' '))
        .map((l) => {
          const [k, v] = l.split(' ');
          return [k, Number(v)];
        }),
    ) as Record<string, number>;
    return {
      usageMs: Number(readFileSync(`${ACCT}/${this.name}/cpuacct.usage`, 'utf8').trim()) / 1e6,
      throttledPeriods: stat.nr_throttled ?? 0,
      throttledMs: (stat.throttled_time ?? 0) / 1e6,
      periods: stat.nr_periods ?? 0,
    };
  }

  /** Moves its processes back to the root groups and deletes it (safe to call twice). */
  remove(): void {
    for (const root of [CPU, ACCT]) {
      const dir = `${root}/${this.name}`;
      if (!existsSync(dir)) continue;
      for (const line of readFileSync(`${dir}/cgroup.procs`, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          writeFileSync(`${root}/cgroup.procs`, line.trim());
        } catch {
          // gone meanwhile
        }
      }
      try {
        rmdirSync(dir);
      } catch {
        // a process still inside (it forked meanwhile): left for the next remove
      }
    }
  }
}

/** The difference of two readings: what the group spent between them. */
export function cpuBetween(a: CpuGroupReading, b: CpuGroupReading): CpuGroupReading {
  return {
    usageMs: b.usageMs - a.usageMs,
    throttledPeriods: b.throttledPeriods - a.throttledPeriods,
    throttledMs: b.throttledMs - a.throttledMs,
    periods: b.periods - a.periods,
  };
}
