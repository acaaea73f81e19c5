import type { SinkRecords } from '../sink/protocol.ts';
import { buildSeries, percentile, type Series } from './series.ts';
import type { StoredJob } from './stores-view.ts';
import { type Occurrence, occurrenceKey } from './workload.ts';

// The final accounting of a run, from what the target received (the sink) and what the stores
// hold (MySQL and Cassandra). Pure: the same inputs give the same verdict.
//
//   delivered   expected occurrences whose effect was applied (a 2xx answered to one of its calls)
//   duplicates  effects beyond one per occurrence: two different Idempotency-Keys for one
//               occurrence both applied (a repeated call with the SAME key is a redelivery, which
//               the idempotent effect absorbs, and is counted apart)
//   lost        expected occurrences with no effect, whose job is not dead-with-reason or
//               cancelled by the harness: never materialised, stuck, or "succeeded" unseen

/**
 * How the first arrivals spread in time: the busiest wall-clock second, and the seconds between
 * the 5th and 95th percentile arrival (a peak with a flexible window spreads itself over it).
 */
function arrivalShape(firstArrivals: number[]): { peak_calls_per_s: number; arrival_spread_s: number } {
  if (firstArrivals.length === 0) return { peak_calls_per_s: 0, arrival_spread_s: 0 };
  const perSecond = new Map<number, number>();
  for (const at of firstArrivals) {
    const s = Math.floor(at / 1000);
    perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
  }
  const sorted = [...firstArrivals].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    peak_calls_per_s: Math.max(...perSecond.values()),
    arrival_spread_s: Math.round((at(0.95) - at(0.05)) / 10) / 100,
  };
}

export interface AnalysisInput {
  expected: Map<string, Occurrence>;
  /** Occurrences scheduled after this are outside the run (cron keeps firing while it stops). */
  windowEndMs: number;
  records: SinkRecords;
  jobs: Map<string, StoredJob>;
  /**
   * Jobs the harness cancelled: when the cancel answered, and whether it answered 'cancelled'
   * (a running job may only be marked, and end cancelled later).
   */
  cancelled: Map<string, { at: number; confirmed: boolean }>;
  /** t = 0 of every series (the first due time). */
  originMs: number;
  /** False for a peer with no dsched stores: only what the target saw is judged. */
  withStores?: boolean;
  /** Tasks whose calls go to a target other than the sink: their scenario accounts for their jobs. */
  outsideSink?: ReadonlySet<string>;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Analysis {
  metrics: Record<string, number>;
  checks: Check[];
  series: Series;
  /** Evidence for a failing check: a few examples each. */
  examples: Record<string, string[]>;
}

interface PerOccurrence {
  keys: Set<string>;
  effects: number;
  firstArrival: number;
  firstEffect: number;
}

const round = (x: number, digits = 1) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : -1);

export function analyze(input: AnalysisInput): Analysis {
  const { expected, records: r, jobs } = input;
  const examples: Record<string, string[]> = {};
  const note = (kind: string, text: string) => {
    const list = examples[kind] ?? [];
    examples[kind] = list;
    if (list.length < 5) list.push(text);
  };

  // What the sink saw, per occurrence.
  const seen = new Map<string, PerOccurrence>();
  let redeliveries = 0;
  let early = 0;
  let callsAfterCancel = 0;
  for (let i = 0; i < r.key.length; i++) {
    const scheduledMs = Date.parse(r.scheduledFor[i] ?? '');
    const arrival = r.arrival[i] as number;
    const key = occurrenceKey(r.taskId[i] ?? '', scheduledMs);
    let occ = seen.get(key);
    if (!occ) {
      occ = { keys: new Set(), effects: 0, firstArrival: arrival, firstEffect: Number.POSITIVE_INFINITY };
      seen.set(key, occ);
    }
    occ.keys.add(r.key[i] ?? '');
    occ.firstArrival = Math.min(occ.firstArrival, arrival);
    if (r.effect[i]) {
      occ.effects++;
      occ.firstEffect = Math.min(occ.firstEffect, r.answeredAt[i] as number);
    } else if ((r.status[i] ?? 0) >= 200 && (r.status[i] ?? 0) < 300) redeliveries++;
    // Fired before it was due: a clock other than the database's decided (invariant 1).
    if (arrival < scheduledMs - 100) {
      early++;
      note('early', `${r.key[i]} scheduled ${r.scheduledFor[i]} arrived ${new Date(arrival).toISOString()}`);
    }
    const cancel = input.cancelled.get(r.key[i] ?? '');
    if (cancel?.confirmed && arrival > cancel.at) {
      callsAfterCancel++;
      note(
        'called after cancel',
        `${r.key[i]} cancelled ${new Date(cancel.at).toISOString()}, called ${new Date(arrival).toISOString()} (attempt ${r.attempt[i]})`,
      );
    }
  }

  // What the stores hold, per occurrence.
  const jobsByOccurrence = new Map<string, StoredJob[]>();
  for (const job of jobs.values()) {
    if (!job.taskId || input.outsideSink?.has(job.taskId)) continue;
    const key = occurrenceKey(job.taskId, job.scheduledMs);
    const list = jobsByOccurrence.get(key);
    if (list) list.push(job);
    else jobsByOccurrence.set(key, [job]);
  }

  let delivered = 0;
  let lost = 0;
  let dead = 0;
  let cancelled = 0;
  let duplicates = 0;
  const lateness = { critical: [] as number[], other: [] as number[] };
  const byProfile = new Map<string, number[]>();
  const arrivals = { critical: [] as [number, number][], other: [] as [number, number][] };
  let lastEffect = Number.NEGATIVE_INFINITY;
  let firstDue = Number.POSITIVE_INFINITY;
  const dueTimes: number[] = [];
  const effectTimes: number[] = [];
  for (const [key, occ] of expected) {
    firstDue = Math.min(firstDue, occ.scheduledMs);
    dueTimes.push(occ.scheduledMs);
    const s = seen.get(key);
    const cls = occ.task.plan.priority === 'critical' ? 'critical' : 'other';
    if (s) {
      const late = s.firstArrival - occ.scheduledMs;
      lateness[cls].push(late);
      arrivals[cls].push([s.firstArrival, late]);
      const lp = byProfile.get(occ.task.plan.profile);
      if (lp) lp.push(late);
      else byProfile.set(occ.task.plan.profile, [late]);
    }
    if (s && s.effects > 0) {
      delivered++;
      lastEffect = Math.max(lastEffect, s.firstEffect);
      effectTimes.push(s.firstEffect);
      continue;
    }
    const js = jobsByOccurrence.get(key) ?? [];
    if (js.some((j) => j.state === 'cancelled' && input.cancelled.has(j.id))) {
      // Cancelled by the harness, not delivered: as asked.
      cancelled++;
      continue;
    }
    if (js.some((j) => j.state === 'dead' && j.lastError)) {
      dead++;
      const j = js.find((x) => x.state === 'dead');
      note(
        'dead',
        `${j?.id} task ${occ.task.id} ${new Date(occ.scheduledMs).toISOString()}: ${j?.lastError}`,
      );
      continue;
    }
    lost++;
    note(
      'lost',
      `task ${occ.task.id} at ${new Date(occ.scheduledMs).toISOString()}: ${
        js.length === 0
          ? s
            ? 'called, never answered 2xx, no job row'
            : 'no job row, never called'
          : `jobs ${js.map((j) => `${j.id}=${j.state}@${j.attempt}${j.lastError ? ` (${j.lastError})` : ''}`).join(', ')}`
      }${s ? `; ${s.keys.size} key(s) called` : '; never called'}`,
    );
  }

  let unexpectedCalls = 0;
  for (const [key, s] of seen) {
    if (s.effects > 1) {
      duplicates += s.effects - 1;
      note('duplicate effect', `${key}: ${s.effects} effects from keys ${[...s.keys].join(', ')}`);
    }
    if (!expected.has(key) && Number(key.split('|')[1]) <= input.windowEndMs) {
      unexpectedCalls++;
      note('unexpected occurrence', `${key} (keys ${[...s.keys].join(', ')})`);
    }
  }

  // Every job of the window must have ended: succeeded, dead with a reason, or cancelled.
  let unaccountedJobs = 0;
  let duplicateJobs = 0;
  let phantom = 0;
  for (const [key, js] of jobsByOccurrence) {
    if (js.length > 1) {
      duplicateJobs += js.length - 1;
      note('duplicate job', `${key}: ${js.map((j) => `${j.id}=${j.state}`).join(', ')}`);
    }
    for (const j of js) {
      if (j.scheduledMs > input.windowEndMs) continue;
      const ok = j.state === 'succeeded' || j.state === 'cancelled' || (j.state === 'dead' && !!j.lastError);
      if (!ok) {
        unaccountedJobs++;
        note('unaccounted job', `${j.id} (${key}) state=${j.state} attempt=${j.attempt} in ${j.where}`);
      }
      if (j.state === 'succeeded' && !(seen.get(key)?.keys.has(j.id) ?? false)) {
        phantom++;
        note('succeeded but never called', `${j.id} (${key})`);
      }
    }
  }

  const sortNum = (a: number[]) => a.sort((x, y) => x - y);
  sortNum(lateness.critical);
  sortNum(lateness.other);
  const all = sortNum([...lateness.critical, ...lateness.other]);
  const metrics: Record<string, number> = {
    expected: expected.size,
    delivered,
    lost,
    duplicates,
    dead,
    cancelled,
    redeliveries,
    duplicate_jobs: duplicateJobs,
    unaccounted_jobs: unaccountedJobs,
    succeeded_never_called: phantom,
    unexpected_occurrences: unexpectedCalls,
    early_calls: early,
    calls_after_cancel: callsAfterCancel,
    calls: r.key.length,
    drain_s: delivered > 0 ? round((lastEffect - firstDue) / 1000, 2) : -1,
    critical_p50_ms: round(percentile(lateness.critical, 50), 0),
    critical_p99_ms: round(percentile(lateness.critical, 99), 0),
    critical_max_ms: round(percentile(lateness.critical, 100), 0),
    other_p50_ms: round(percentile(lateness.other, 50), 0),
    other_p99_ms: round(percentile(lateness.other, 99), 0),
    other_max_ms: round(percentile(lateness.other, 100), 0),
    p99_ms: round(percentile(all, 99), 0),
    ...arrivalShape([...arrivals.critical, ...arrivals.other].map(([at]) => at)),
  };
  // A run with no critical task has no critical figures (rather than -1s that read like data).
  if (lateness.critical.length === 0) {
    delete metrics.critical_p50_ms;
    delete metrics.critical_p99_ms;
    delete metrics.critical_max_ms;
  }
  if (byProfile.size > 1) {
    for (const [profile, list] of byProfile) {
      sortNum(list);
      metrics[`${profile}_p50_ms`] = round(percentile(list, 50), 0);
      metrics[`${profile}_p99_ms`] = round(percentile(list, 99), 0);
      metrics[`${profile}_max_ms`] = round(percentile(list, 100), 0);
    }
  }
  // A job the target saw must be in MySQL or in history: the archiver deletes only what it wrote.
  let missingFromStores = 0;
  for (const key of new Set(r.key)) {
    if (key && !jobs.has(key)) {
      missingFromStores++;
      note('called job in neither MySQL nor history', key);
    }
  }
  metrics.jobs_missing_from_stores = missingFromStores;
  // Written to history but not yet deleted from MySQL (an archiver between its two steps).
  metrics.jobs_in_both_stores = [...jobs.values()].filter((j) => j.where === 'both').length;
  const storeChecks = new Set([
    'one job per occurrence',
    'every job accounted for',
    'history keeps every called job',
    'no success without a call',
  ]);
  const checks: Check[] = [
    { name: 'no loss', ok: lost === 0, detail: `${lost} of ${expected.size} expected occurrences lost` },
    { name: 'no duplicate effect', ok: duplicates === 0, detail: `${duplicates} duplicate effects` },
    { name: 'one job per occurrence', ok: duplicateJobs === 0, detail: `${duplicateJobs} extra job rows` },
    {
      name: 'every job accounted for',
      ok: unaccountedJobs === 0,
      detail: `${unaccountedJobs} jobs not succeeded/dead-with-reason/cancelled`,
    },
    {
      name: 'history keeps every called job',
      ok: missingFromStores === 0,
      detail: `${missingFromStores} called jobs in neither MySQL nor Cassandra`,
    },
    {
      name: 'no success without a call',
      ok: phantom === 0,
      detail: `${phantom} jobs succeeded that the target never saw`,
    },
    {
      name: 'no unexpected occurrence',
      ok: unexpectedCalls === 0,
      detail: `${unexpectedCalls} calls for occurrences not implied by any schedule`,
    },
    {
      name: 'nothing fired early',
      ok: early === 0,
      detail: `${early} calls arrived before their scheduled time`,
    },
  ];
  if (input.withStores === false) {
    for (const k of [
      'duplicate_jobs',
      'unaccounted_jobs',
      'succeeded_never_called',
      'jobs_missing_from_stores',
      'jobs_in_both_stores',
      'dead',
      'cancelled',
    ])
      delete metrics[k];
    for (let i = checks.length - 1; i >= 0; i--) if (storeChecks.has(checks[i]!.name)) checks.splice(i, 1);
  }
  if (input.cancelled.size > 0)
    checks.push({
      name: 'a cancelled job never fires',
      ok: callsAfterCancel === 0,
      detail: `${callsAfterCancel} calls after their job's cancel answered`,
    });

  return {
    metrics,
    checks,
    examples,
    series: buildSeries(input.originMs, dueTimes, effectTimes, arrivals, lateness),
  };
}
