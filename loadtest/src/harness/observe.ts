import { readFileSync } from 'node:fs';
import type { Instance } from './fleet.ts';

// What a fault scenario reads from the services themselves, besides the stores and the sink: a
// counter of their Prometheus text, and the resident memory of their processes over time.

/** The sum of a metric's series in an instance's /metrics (undefined when it cannot be read). */
export async function scrapeCounter(inst: Instance, name: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${inst.url}/metrics`, { signal: AbortSignal.timeout(3000) });
    const text = await res.text();
    let sum = 0;
    let seen = false;
    for (const line of text.split('\n')) {
      if (!line.startsWith(name)) continue;
      const rest = line.slice(name.length);
      if (rest[0] !== ' ' && rest[0] !== '{') continue;
      const value = Number(line.slice(line.lastIndexOf(' ') + 1));
      if (Number.isFinite(value)) {
        sum += value;
        seen = true;
      }
    }
    return seen ? sum : 0;
  } catch {
    return undefined;
  }
}

/** VmRSS of a process in MiB (undefined once it is gone). */
export function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface RssPoint {
  t: number;
  /** MiB by instance (`executor-0`), the process running under that name at the time. */
  byInstance: Record<string, number>;
}

/** Samples the RSS of every running instance every `intervalMs`, until stopped. */
export class RssSampler {
  readonly points: RssPoint[] = [];
  #timer: NodeJS.Timeout;

  constructor(instances: () => Instance[], intervalMs = 1000) {
    this.#timer = setInterval(() => {
      const byInstance: Record<string, number> = {};
      for (const inst of instances()) {
        const pid = inst.child?.running() ? inst.child.pid : undefined;
        const mib = pid === undefined ? undefined : rssMiB(pid);
        if (mib !== undefined) byInstance[`${inst.name}-${inst.index}`] = Number(mib.toFixed(1));
      }
      this.points.push({ t: Date.now(), byInstance });
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** One instance's samples between two times (ms). */
  series(instance: string, from = 0, to = Number.POSITIVE_INFINITY): number[] {
    return this.points
      .filter((p) => p.t >= from && p.t <= to && p.byInstance[instance] !== undefined)
      .map((p) => p.byInstance[instance] ?? 0);
  }
}
