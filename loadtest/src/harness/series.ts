// The time series a report plots, from the per-occurrence facts of the analysis.

export interface Series {
  /** Seconds since origin → effects per second. */
  throughput: [number, number][];
  /** Seconds since origin → occurrences due and not yet delivered. */
  backlog: [number, number][];
  /** Per class, seconds since origin of first arrival → lateness p50 / p99 / max (ms) in that bucket. */
  latenessOverTime: Record<'critical' | 'other', { t: number; p50: number; p99: number; max: number }[]>;
  /** Per class, (percentile 0..100, lateness ms). */
  latenessCdf: Record<'critical' | 'other', [number, number][]>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export function buildSeries(
  origin: number,
  dueTimes: number[],
  effectTimes: number[],
  arrivals: Record<'critical' | 'other', [number, number][]>,
  lateness: Record<'critical' | 'other', number[]>,
): Series {
  let end = origin;
  for (const t of effectTimes) end = Math.max(end, t);
  for (const t of dueTimes) end = Math.max(end, t);
  const span = Math.max(1, end - origin);
  // About 200 buckets over the run, at least 100 ms each.
  const bucket = Math.max(100, Math.ceil(span / 200 / 100) * 100);
  const n = Math.ceil(span / bucket) + 1;
  // Throughput in coarser buckets (about 80, at least 250 ms): a rate over 100 ms is mostly noise.
  const rateBucket = Math.max(250, Math.ceil(span / 80 / 250) * 250);
  const eff = new Array<number>(Math.ceil(span / rateBucket) + 1).fill(0);
  for (const t of effectTimes) {
    const b = Math.floor((t - origin) / rateBucket);
    if (b >= 0 && b < eff.length) eff[b] = (eff[b] as number) + 1;
  }
  const throughput = eff.map(
    (c, i) => [((i + 0.5) * rateBucket) / 1000, (c * 1000) / rateBucket] as [number, number],
  );
  const due = [...dueTimes].sort((a, b) => a - b);
  const done = [...effectTimes].sort((a, b) => a - b);
  const backlog: [number, number][] = [];
  let di = 0;
  let ei = 0;
  for (let i = 0; i <= n; i++) {
    const t = origin + i * bucket;
    while (di < due.length && (due[di] as number) <= t) di++;
    while (ei < done.length && (done[ei] as number) <= t) ei++;
    backlog.push([(i * bucket) / 1000, Math.max(0, di - ei)]);
  }
  const overTime = (list: [number, number][]) => {
    const buckets = new Map<number, number[]>();
    for (const [at, late] of list) {
      const b = Math.floor((at - origin) / bucket);
      const l = buckets.get(b);
      if (l) l.push(late);
      else buckets.set(b, [late]);
    }
    // Every bucket from the first to the last, an empty one as NaN: a gap shows as a gap.
    const keys = [...buckets.keys()];
    if (keys.length === 0) return [];
    const out: { t: number; p50: number; p99: number; max: number }[] = [];
    for (let b = Math.min(...keys); b <= Math.max(...keys); b++) {
      const l = buckets.get(b);
      const t = ((b + 0.5) * bucket) / 1000;
      if (!l) {
        out.push({ t, p50: Number.NaN, p99: Number.NaN, max: Number.NaN });
        continue;
      }
      l.sort((x, y) => x - y);
      out.push({ t, p50: percentile(l, 50), p99: percentile(l, 99), max: percentile(l, 100) });
    }
    return out;
  };
  const cdf = (sorted: number[]) => {
    const points: [number, number][] = [];
    if (sorted.length === 0) return points;
    for (let k = 0; k <= 400; k++) {
      const p = (k / 400) * 100;
      points.push([p, percentile(sorted, Math.max(p, 100 / sorted.length))]);
    }
    return points;
  };
  return {
    throughput,
    backlog,
    latenessOverTime: { critical: overTime(arrivals.critical), other: overTime(arrivals.other) },
    latenessCdf: { critical: cdf(lateness.critical), other: cdf(lateness.other) },
  };
}
