import { burst, spread } from '../harness/workload.ts';
import { dueAfterRegistering, finishWindow, registerSpread } from './common.ts';
import type { Scenario } from './types.ts';

// Faults on the target's side: it fails half its calls and answers slowly; long calls (and 202
// asynchronous ones) beside short ones; one tenant at its concurrency limit beside others.

const RETRY_HARD = { maxAttempts: 20, initialBackoffMs: 200, maxBackoffMs: 2000 };

export const targetFlaky: Scenario = {
  name: 'target-flaky',
  summary: 'the target fails 50% of calls (503) and answers in 20-800 ms; 20 attempts allowed',
  knobs: { tasks: 6000, seconds: 60 },
  async run(run) {
    await run.start({ tenants: 5, profiles: { flaky: { failShare: 0.5, delayMs: [20, 800] } } });
    // With 20 attempts at 50%, a job goes dead with odds 2^-20: any dead job here is a bug.
    const w = await registerSpread(run, run.knob('tasks', 6000), run.knob('seconds', 60), {
      profile: 'flaky',
      retry: RETRY_HARD,
    });
    const result = await finishWindow(
      run,
      w,
      (m) => `${m.calls} calls for ${m.expected} occurrences, p99 first-call lateness ${m.p99_ms} ms`,
    );
    result.checks.push({
      name: 'no job dead',
      ok: result.metrics.dead === 0,
      detail: `${result.metrics.dead} dead`,
    });
    return result;
  },
};

export const longShort: Scenario = {
  name: 'long-short',
  summary: 'long calls (20-30 s, long lane) and 202 asynchronous jobs beside a stream of short calls',
  knobs: { long: 200, async: 60, short: 4000, seconds: 60 },
  async run(run) {
    await run.start({
      tenants: 4,
      profiles: {
        short: {},
        long: { delayMs: [20_000, 30_000] },
        // Answers 202, heartbeats, completes through job-api 15 s later.
        async: { async: { completeAfterMs: 15_000, heartbeatMs: 5_000 } },
      },
    });
    const longN = run.knob('long', 200);
    const asyncN = run.knob('async', 60);
    const shortN = run.knob('short', 4000);
    const seconds = run.knob('seconds', 60);
    const origin = await dueAfterRegistering(run, longN + asyncN + shortN);
    const tenants = run.tenants.length;
    // More long calls than the long lanes of all executors hold, all due first: the long lane is
    // full for the whole run, and short calls must not notice.
    await run.register([
      ...burst(longN, origin, { tenants, profile: 'long' }).map((p) => ({ ...p, timeoutMs: 120_000 })),
      ...burst(asyncN, origin, { tenants, profile: 'async' }),
      ...spread(shortN, origin + 1000, seconds * 1000, { tenants, profile: 'short' }),
    ]);
    const result = await finishWindow(
      run,
      { origin, end: origin + 1000 + seconds * 1000 },
      (m) => `short p99 ${m.short_p99_ms} ms while long calls run ${m.long_p50_ms} ms late (p50)`,
    );
    const m = result.metrics;
    result.checks.push({
      name: 'short calls not held back by long ones',
      ok: (m.short_p99_ms ?? Number.POSITIVE_INFINITY) < 5000,
      detail: `short p99 ${m.short_p99_ms} ms (a long call lasts 20-30 s)`,
    });
    // A live executor renews its claims (every lease TTL / 3), so a call still running is never
    // handed to another executor: no long job should see a second attempt.
    const records = await run.sink.records();
    const reattempted = new Set<string>();
    records.profile.forEach((p, i) => {
      if (p === 'long' && (records.attempt[i] ?? 1) > 1) reattempted.add(records.key[i] ?? '');
    });
    m.long_jobs_reattempted = reattempted.size;
    result.checks.push({
      name: 'a running long call is not handed to another executor (claim renewal)',
      ok: reattempted.size === 0,
      detail: `${reattempted.size} of ${longN} long jobs called again while (or after) their first call ran; EXECUTOR_LEASE_S ${run.fleet.spec.env.EXECUTOR_LEASE_S}`,
    });
    const stats = await run.sink.stats();
    const completions = Object.entries(stats.completions);
    if (completions.some(([k]) => /^complete:(404|405)$/.test(k)))
      run.missing.push('asynchronous completion: job-api POST /v1/jobs/{id}/complete answered 404');
    else
      result.checks.push({
        name: 'every 202 job completed through job-api',
        ok: (stats.completions['complete:200'] ?? 0) + (stats.completions['complete:204'] ?? 0) >= asyncN,
        detail: completions.map(([k, v]) => `${k}×${v}`).join(', ') || 'no completion calls',
      });
    return result;
  },
};

export const tenantLimit: Scenario = {
  name: 'tenant-limit',
  summary: 'one tenant at its concurrency limit (5, slow calls) beside four others with a steady stream',
  knobs: { limited: 100, others: 4000, seconds: 40, limit: 5 },
  async run(run) {
    const limit = run.knob('limit', 5);
    await run.start({
      tenants: 5,
      quotas: (i) => (i === 0 ? { maxConcurrency: limit } : {}),
      profiles: { slow: { delayMs: [1000, 2000] }, fast: {} },
    });
    const limitedN = run.knob('limited', 100);
    const othersN = run.knob('others', 4000);
    const seconds = run.knob('seconds', 40);
    const origin = await dueAfterRegistering(run, limitedN + othersN);
    await run.register([
      ...burst(limitedN, origin, { tenants: 1, profile: 'slow' }),
      // Tenants 1-4 only.
      ...spread(othersN, origin, seconds * 1000, { tenants: 4, profile: 'fast' }).map((p) => ({
        ...p,
        tenant: p.tenant + 1,
      })),
    ]);
    const result = await finishWindow(run, { origin, end: origin + seconds * 1000 }, () => '');
    const stats = await run.sink.stats();
    const peakLimited = stats.maxInFlightByTenant[0] ?? 0;
    result.metrics.limited_tenant_max_in_flight = peakLimited;
    result.headline = `limited tenant peaked at ${peakLimited} in flight (limit ${limit}); others p99 ${result.metrics.fast_p99_ms} ms`;
    result.checks.push(
      {
        name: `the limited tenant never had more than ${limit} calls in flight (across all executors)`,
        ok: peakLimited <= limit,
        detail: `peak ${peakLimited} concurrent calls at the target`,
      },
      {
        name: 'other tenants not held back',
        ok: (result.metrics.fast_p99_ms ?? Number.POSITIVE_INFINITY) < 5000,
        detail: `others p99 ${result.metrics.fast_p99_ms} ms`,
      },
    );
    return result;
  },
};
