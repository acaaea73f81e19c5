import { buildSeries, percentile, type Series } from './series.ts';
import {
  type AnalysisInput,
  type ExpectedSide,
  examplesCollector,
  expectedSide,
  jobSide,
  jobsByOccurrence,
  sinkSide,
  surplus,
} from './tallies.ts';

export { type AnalysisInput, examplesCollector, type Note } from './tallies.ts';

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

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /**
   * Set when failing this check is the known price of the configuration the run was asked for
   * (asynchronous replication losing what the replica had not received): the verdict is then
   * EXPECTED-LOSS, naming it, not FAIL, and never PASS.
   */
  expectedCost?: string;
}

export interface Analysis {
  metrics: Record<string, number>;
  checks: Check[];
  series: Series;
  /** Evidence for a failing check: a few examples each. */
  examples: Record<string, string[]>;
}

const round = (x: number, digits = 1) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : -1);

/** Lateness percentiles: critical, other, all, and per profile when there is more than one. */
function latenessMetrics(e: ExpectedSide): Record<string, number> {
  const sortNum = (a: number[]) => a.sort((x, y) => x - y);
  sortNum(e.lateness.critical);
  sortNum(e.lateness.other);
  const all = sortNum([...e.lateness.critical, ...e.lateness.other]);
  const m: Record<string, number> = {
    critical_p50_ms: round(percentile(e.lateness.critical, 50), 0),
    critical_p99_ms: round(percentile(e.lateness.critical, 99), 0),
    critical_max_ms: round(percentile(e.lateness.critical, 100), 0),
    other_p50_ms: round(percentile(e.lateness.other, 50), 0),
    other_p99_ms: round(percentile(e.lateness.other, 99), 0),
    other_max_ms: round(percentile(e.lateness.other, 100), 0),
    p99_ms: round(percentile(all, 99), 0),
    ...arrivalShape([...e.arrivals.critical, ...e.arrivals.other].map(([at]) => at)),
  };
  // A run with no critical task has no critical figures (rather than -1s that read like data).
  if (e.lateness.critical.length === 0) {
    delete m.critical_p50_ms;
    delete m.critical_p99_ms;
    delete m.critical_max_ms;
  }
  if (e.byProfile.size > 1) {
    for (const [profile, list] of e.byProfile) {
      sortNum(list);
      m[`${profile}_p50_ms`] = round(percentile(list, 50), 0);
      m[`${profile}_p99_ms`] = round(percentile(list, 99), 0);
      m[`${profile}_max_ms`] = round(percentile(list, 100), 0);
    }
  }
  return m;
}

/** The checks that read the stores, left out for a peer with none. */
const STORE_CHECKS = new Set([
  'one job per occurrence',
  'every job accounted for',
  'history keeps every called job',
  'no success without a call',
]);
const STORE_METRICS = [
  'duplicate_jobs',
  'unaccounted_jobs',
  'succeeded_never_called',
  'jobs_missing_from_stores',
  'jobs_in_both_stores',
  'dead',
  'cancelled',
];

function analysisChecks(input: AnalysisInput, m: Record<string, number>): Check[] {
  const checks: Check[] = [
    {
      name: 'no loss',
      ok: m.lost === 0,
      detail: `${m.lost} of ${input.expected.size} expected occurrences lost`,
    },
    { name: 'no duplicate effect', ok: m.duplicates === 0, detail: `${m.duplicates} duplicate effects` },
    {
      name: 'one job per occurrence',
      ok: m.duplicate_jobs === 0,
      detail: `${m.duplicate_jobs} extra job rows`,
    },
    {
      name: 'every job accounted for',
      ok: m.unaccounted_jobs === 0,
      detail: `${m.unaccounted_jobs} jobs not succeeded/dead-with-reason/cancelled`,
    },
    {
      name: 'history keeps every called job',
      ok: m.jobs_missing_from_stores === 0,
      detail: `${m.jobs_missing_from_stores} called jobs in neither MySQL nor Cassandra`,
    },
    {
      name: 'no success without a call',
      ok: m.succeeded_never_called === 0,
      detail: `${m.succeeded_never_called} jobs succeeded that the target never saw`,
    },
    {
      name: 'no unexpected occurrence',
      ok: m.unexpected_occurrences === 0,
      detail: `${m.unexpected_occurrences} calls for occurrences not implied by any schedule`,
    },
    {
      name: 'nothing fired early',
      ok: m.early_calls === 0,
      detail: `${m.early_calls} calls arrived before their scheduled time`,
    },
  ];
  if (input.withStores === false)
    for (let i = checks.length - 1; i >= 0; i--) if (STORE_CHECKS.has(checks[i]!.name)) checks.splice(i, 1);
  if (input.cancelled.size > 0)
    checks.push({
      name: 'a cancelled job never fires',
      ok: m.calls_after_cancel === 0,
      detail: `${m.calls_after_cancel} calls after their job's cancel answered`,
    });
  return checks;
}

export function analyze(input: AnalysisInput): Analysis {
  const { examples, note } = examplesCollector();
  const sink = sinkSide(input, note);
  const byOccurrence = jobsByOccurrence(input);
  const e = expectedSide(input, sink.seen, byOccurrence, note);
  const { duplicates, unexpectedCalls } = surplus(input, sink.seen, note);
  const j = jobSide(input, byOccurrence, sink.seen, note);
  const metrics: Record<string, number> = {
    expected: input.expected.size,
    delivered: e.delivered,
    lost: e.lost,
    duplicates,
    dead: e.dead,
    cancelled: e.cancelled,
    redeliveries: sink.redeliveries,
    duplicate_jobs: j.duplicateJobs,
    unaccounted_jobs: j.unaccountedJobs,
    succeeded_never_called: j.phantom,
    unexpected_occurrences: unexpectedCalls,
    early_calls: sink.early,
    calls_after_cancel: sink.callsAfterCancel,
    calls: input.records.key.length,
    drain_s: e.delivered > 0 ? round((e.lastEffect - e.firstDue) / 1000, 2) : -1,
    ...latenessMetrics(e),
    jobs_missing_from_stores: j.missingFromStores,
    // Written to history but not yet deleted from MySQL (an archiver between its two steps).
    jobs_in_both_stores: [...input.jobs.values()].filter((x) => x.where === 'both').length,
  };
  const checks = analysisChecks(input, metrics);
  if (input.withStores === false) for (const k of STORE_METRICS) delete metrics[k];
  return {
    metrics,
    checks,
    examples,
    series: buildSeries(input.originMs, e.dueTimes, e.effectTimes, e.arrivals, e.lateness),
  };
}
