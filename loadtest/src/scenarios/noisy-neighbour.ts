import { performance } from 'node:perf_hooks';
import { DEFAULT_PARTITIONS, newId, partitionOfId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { ALL_PARTITIONS, CLAIM_STATEMENTS } from '@dsched/mysql/jobs/claim';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, databaseNow, type Pool } from '@dsched/mysql/pool';
import { isRetryableTxError } from '@dsched/mysql/transaction';
import { insertTaggedBacklog } from '@dsched/testkit/queue';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { analyze, type Check } from '../harness/analyze.ts';
import { machineState } from '../harness/machine.ts';
import type { Run, RunResult } from '../harness/run.ts';
import { percentile } from '../harness/series.ts';
import { SHARED_MYSQL } from '../harness/stack.ts';
import { sleep } from '../harness/wait.ts';
import { sinkUrl } from '../sink/protocol.ts';
import type { Scenario } from './types.ts';

// Issue 15's benchmark: what a flood does to quiet tenants, with fair share and without.
//
// Ten tenants of weight 1. The fleet's capacity C is measured first (one tenant's backlog, calls
// per second at the sink). Then three phases of the same length, each offered by inserting due
// jobs straight into the queue every 100 ms (task-api could not register 10·C a second): a
// baseline (the nine quiet tenants alone, 0.05·C each), the flood with fair share (tenant 0 at
// 10·C beside them), and the same flood as a FIFO control (executors restarted with
// EXECUTOR_FAIR_SHARE=false). Lateness is the sink's arrival time less the job's due time; a
// quiet job not called when its phase is judged counts at its age then. Last, the fair claim's
// locking read is timed in a database of its own holding `claim-rows` ready rows across 10,000
// tenants. Loopback only; every loop is bounded by its phase's end.

const CLAIM_SELECT_FAIR = CLAIM_STATEMENTS.selectFair;
const TICK_MS = 100;
const QUIET = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const FLOOD = 0;
/** A phase's first seconds are not judged: the offered load and the queue settle. */
const WARMUP_MS = 5000;

interface Offer {
  /** Tenant index → jobs per second offered. */
  rates: Map<number, number>;
  ms: number;
}

interface PhaseResult {
  from: number;
  to: number;
  /** Per tenant index: calls (first attempts) that arrived in [from, to). */
  calls: Map<number, number>;
  quietP99: number;
  quietCalled: number;
  quietUncalled: number;
}

export const noisyNeighbour: Scenario = {
  name: 'noisy-neighbour',
  summary:
    'one tenant floods at 10·C, nine quiet ones at 0.05·C each: quiet lateness with fair share, without (FIFO), and alone (issue 15)',
  knobs: { seconds: 60, minutes: 0, 'capacity-seconds': 10, 'call-ms': 50, 'claim-rows': 1_000_000 },
  async run(run) {
    const before = machineState();
    const phaseMs =
      (run.knob('minutes', 0) > 0 ? run.knob('minutes', 0) * 60 : run.knob('seconds', 60)) * 1000;
    const callMs = run.knob('call-ms', 50);
    let fair = true;
    await run.start({
      tenants: 10,
      profiles: { fast: { delayMs: [callMs, callMs] } },
      // Two executors claim; one of everything else (the load is the executors').
      replicas: { 'task-api': 1, 'job-api': 1, scheduler: 1, reconciler: 1, archiver: 1, executor: 2 },
      env: { EXECUTOR_DEFAULT_CONCURRENCY: '16', EXECUTOR_POLL_MS: '50' },
      envFor: (name): Record<string, string> =>
        name === 'executor' ? { EXECUTOR_FAIR_SHARE: fair ? 'true' : 'false' } : {},
    });
    const pool = createPool(run.stores.databaseUrl, { connectionLimit: 4 });
    run.cleanups.push(() => pool.end());
    const offset = (await databaseNow(pool)).getTime() - Date.now();
    const urls = run.tenants.map((t) => sinkUrl(run.sink.url, t.index, 'fast'));
    const insert = (counts: Map<number, number>) => insertDue(pool, run, urls, counts, offset);
    await run.sink.reset();
    const origin = Date.now();

    // Capacity: one tenant's backlog, far more than the fleet calls in the window.
    run.mark('capacity: one tenant backlogged');
    const capacityMs = run.knob('capacity-seconds', 10) * 1000;
    const backlog = Math.ceil((32_000 / callMs) * (capacityMs / 1000 + 5));
    for (let done = 0; done < backlog; done += 5000)
      await insert(new Map([[FLOOD, Math.min(5000, backlog - done)]]));
    await sleep(3000);
    const c0 = Date.now();
    await sleep(capacityMs);
    const capacityCalls = countArrivals(await run.sink.records(), c0, c0 + capacityMs).total;
    const C = (capacityCalls * 1000) / capacityMs;
    run.mark(`capacity C = ${C.toFixed(0)} calls/s`);
    await clearQueue(pool);

    const quietRates = new Map(QUIET.map((t) => [t, (0.5 * C) / 10]));
    const floodRates = new Map([...quietRates, [FLOOD, 10 * C]]);

    run.mark('baseline: the quiet tenants alone');
    const baseline = await phase(run, insert, { rates: quietRates, ms: phaseMs });
    await clearQueue(pool);

    run.mark('flood, fair share on');
    const flooded = await phase(run, insert, { rates: floodRates, ms: phaseMs });
    await clearQueue(pool);

    run.mark('flood, FIFO control (EXECUTOR_FAIR_SHARE=false)');
    fair = false;
    for (const e of run.fleet.of('executor')) await run.fleet.restart(e);
    await sleep(3000);
    const fifo = await phase(run, insert, { rates: floodRates, ms: phaseMs });
    await clearQueue(pool);

    // Shares in the fair phase against the max-min fair allocation: each quiet tenant its demand
    // (below a tenth), the flood the rest of what was dispatched.
    const total = [...flooded.calls.values()].reduce((a, b) => a + b, 0);
    const seconds = (flooded.to - flooded.from) / 1000;
    const fairShare = (t: number) =>
      t === FLOOD ? 1 - (9 * quietRates.get(1)! * seconds) / total : (quietRates.get(t)! * seconds) / total;
    let shareError = 0;
    const ratios: number[] = [];
    for (let t = 0; t < 10; t++) {
      const share = (flooded.calls.get(t) ?? 0) / Math.max(1, total);
      shareError = Math.max(shareError, Math.abs(share - fairShare(t)) * 100);
      ratios.push(share / fairShare(t));
    }
    const jain =
      ratios.reduce((a, b) => a + b, 0) ** 2 / (ratios.length * ratios.reduce((a, b) => a + b * b, 0));
    const utilisation = total / seconds / C;
    const fifoTotal = [...fifo.calls.values()].reduce((a, b) => a + b, 0);
    const baselineTotal = [...baseline.calls.values()].reduce((a, b) => a + b, 0);

    const claimRows = run.knob('claim-rows', 1_000_000);
    run.mark(
      `claim: the fair claim's read at ${claimRows.toLocaleString('en')} ready rows across 10,000 tenants`,
    );
    const claimP99 = await claimAtScale(run, claimRows);

    const claimKey = claimRows >= 1_000_000 ? 'claim_ms_p99_at_1m' : 'claim_ms_p99';
    const metrics: Record<string, number> = {
      capacity_per_s: round(C, 0),
      quiet_p99_ms: round(flooded.quietP99, 0),
      quiet_baseline_p99_ms: round(baseline.quietP99, 0),
      fifo_quiet_p99_ms: round(fifo.quietP99, 0),
      utilisation: round(utilisation, 3),
      fifo_utilisation: round(fifoTotal / ((fifo.to - fifo.from) / 1000) / C, 3),
      baseline_calls_per_s: round(baselineTotal / ((baseline.to - baseline.from) / 1000), 1),
      [claimKey]: round(claimP99, 2),
      claim_rows: claimRows,
      share_error_pts: round(shareError, 2),
      jain_index: round(jain, 4),
      flood_calls: flooded.calls.get(FLOOD) ?? 0,
      quiet_calls: flooded.quietCalled,
      quiet_uncalled: flooded.quietUncalled,
      fifo_quiet_uncalled: fifo.quietUncalled,
      phase_s: phaseMs / 1000,
    };
    const checks: Check[] = [
      {
        name: 'quiet p99 ≤ baseline + 1 s and ≤ 2 s during the flood',
        ok: flooded.quietP99 <= Math.min(baseline.quietP99 + 1000, 2000),
        detail: `${metrics.quiet_p99_ms} ms (baseline ${metrics.quiet_baseline_p99_ms} ms)`,
      },
      {
        name: 'the FIFO control shows the flood: quiet p99 past baseline + 1 s',
        ok: fifo.quietP99 > baseline.quietP99 + 1000,
        detail: `${metrics.fifo_quiet_p99_ms} ms`,
      },
      {
        name: 'work conserving: dispatch ≥ 95 % of C during the flood',
        ok: utilisation >= 0.95,
        detail: `${(utilisation * 100).toFixed(1)} % of ${metrics.capacity_per_s}/s`,
      },
      {
        name: 'shares within 3 points of the max-min fair shares',
        ok: shareError <= 3,
        detail: `worst ${metrics.share_error_pts} points, Jain ${metrics.jain_index}`,
      },
      claimRows >= 1_000_000
        ? {
            name: 'claim p99 ≤ 10 ms at 1M ready rows',
            ok: claimP99 <= 10,
            detail: `${metrics[claimKey]} ms`,
          }
        : {
            name: 'claim p99 at 1M ready rows',
            ok: true,
            detail: `not measured: --claim-rows ${claimRows} (${metrics[claimKey]} ms there)`,
          },
    ];
    run.extraChecks.push(...checks);
    run.notes.push(
      'jobs are offered by inserting due rows into the queue (not through task-api), so the loss accounting of the other scenarios does not apply; the checks are the goals of issue 15',
    );
    return result(
      run,
      origin,
      before,
      metrics,
      (m) =>
        `C ${m.capacity_per_s}/s; quiet p99 ${m.quiet_p99_ms} ms fair, ${m.fifo_quiet_p99_ms} ms FIFO, ${m.quiet_baseline_p99_ms} ms alone; utilisation ${m.utilisation}; ${claimKey} ${m[claimKey]}`,
    );
  },
};

const round = (x: number, digits: number) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : -1);

/** Offers `offer` for its length, then judges the calls due in it (after the warm-up). */
async function phase(
  run: Run,
  insert: (counts: Map<number, number>) => Promise<void>,
  offer: Offer,
): Promise<PhaseResult> {
  const start = Date.now();
  const end = start + offer.ms;
  const sent = new Map<number, number>();
  while (Date.now() < end) {
    const elapsed = Date.now() - start;
    const counts = new Map<number, number>();
    for (const [t, rate] of offer.rates) {
      const due = Math.floor((rate * elapsed) / 1000) - (sent.get(t) ?? 0);
      if (due > 0) {
        counts.set(t, due);
        sent.set(t, (sent.get(t) ?? 0) + due);
      }
    }
    await insert(counts);
    await sleep(Math.max(0, TICK_MS - (Date.now() - start - elapsed)));
  }
  // The quiet jobs of the window get a few seconds more to be called; the rest count at their age.
  await sleep(3000);
  const judgedAt = Date.now();
  const from = start + WARMUP_MS;
  const records = await run.sink.records();
  const arrivals = countArrivals(records, from, end);
  const lateness: number[] = [];
  const called = new Set<string>();
  for (let i = 0; i < records.key.length; i++) {
    const tenant = records.tenant[i]!;
    if (tenant === FLOOD || records.attempt[i] !== 1) continue;
    const due = Date.parse(records.scheduledFor[i] ?? '');
    if (due < from || due >= end) continue;
    called.add(records.key[i]!);
    lateness.push(records.arrival[i]! - due);
  }
  const [uncalled] = await run.view.pool.query<RowDataPacket[]>(
    `SELECT TIMESTAMPDIFF(MICROSECOND, scheduled_for, NOW(3)) / 1000 AS age_ms FROM jobs
      WHERE state IN ('pending', 'running') AND attempt <= 1 AND tenant_id IN (?)
        AND scheduled_for >= ? AND scheduled_for < ?`,
    [QUIET.map((t) => idToBin(run.tenants[t]!.id)), new Date(from), new Date(end)],
  );
  for (const u of uncalled) lateness.push(Number(u.age_ms) + (Date.now() - judgedAt));
  lateness.sort((a, b) => a - b);
  return {
    from,
    to: end,
    calls: arrivals.byTenant,
    quietP99: percentile(lateness, 99),
    quietCalled: called.size,
    quietUncalled: uncalled.length,
  };
}

/** First calls that arrived at the sink in [from, to), per tenant index. */
function countArrivals(
  records: Awaited<ReturnType<Run['sink']['records']>>,
  from: number,
  to: number,
): { total: number; byTenant: Map<number, number> } {
  const byTenant = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < records.key.length; i++) {
    const at = records.arrival[i]!;
    if (at < from || at >= to || records.attempt[i] !== 1) continue;
    total++;
    byTenant.set(records.tenant[i]!, (byTenant.get(records.tenant[i]!) ?? 0) + 1);
  }
  return { total, byTenant };
}

/** Due jobs, now on the database clock, `counts` per tenant index, one statement per 2,000. */
async function insertDue(
  pool: Pool,
  run: Run,
  urls: string[],
  counts: Map<number, number>,
  offsetMs: number,
): Promise<void> {
  const now = new Date(Date.now() + offsetMs);
  const rows: unknown[][] = [];
  for (const [t, n] of counts) {
    const tenant = idToBin(run.tenants[t]!.id);
    const target = JSON.stringify({ method: 'POST', url: urls[t], headers: {}, timeoutMs: 5000 });
    for (let i = 0; i < n; i++) {
      const id = newId();
      rows.push([
        idToBin(id),
        tenant,
        null,
        `nn:${id}`,
        'trigger',
        now,
        2,
        'default',
        'pending',
        0,
        3,
        now,
        target,
        RETRY,
        now,
        now,
        partitionOfId(id, DEFAULT_PARTITIONS),
      ]);
    }
  }
  for (let i = 0; i < rows.length; i += 2000) {
    await retryingDeadlocks(() =>
      pool.query(
        `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
         attempt, max_attempts, run_at, target, retry, created_at, updated_at, \`partition\`) VALUES ?`,
        [rows.slice(i, i + 2000)],
      ),
    );
  }
}

/**
 * The harness's own bulk writes meet the executors' claims and taggers on the same rows and
 * indexes; a deadlock rolls the statement back whole, so it is run again (a run once ended with a
 * harness error at the flood's start).
 */
async function retryingDeadlocks<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 5 || !isRetryableTxError(err)) throw err;
      await sleep(50 * (attempt + 1));
    }
  }
}

const RETRY = JSON.stringify({ maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] });

/** What a phase left pending is not the next one's load; the calls in flight end on their own. */
async function clearQueue(pool: Pool): Promise<void> {
  for (;;) {
    const [r] = await retryingDeadlocks(() =>
      pool.query<mysql.ResultSetHeader>("DELETE FROM jobs WHERE state = 'pending' LIMIT 20000"),
    );
    if (r.affectedRows < 20_000) break;
  }
  await sleep(1000);
}

/**
 * The fair claim's locking read (claim-select-fair.sql, 16 rows: an executor's free slots) timed
 * 500 times in its own transaction each, in a database of its own holding `rows` tagged ready
 * jobs across 10,000 tenants; its p99 in ms.
 */
async function claimAtScale(run: Run, rows: number): Promise<number> {
  const name = `${run.stores.databaseUrl.split('/').pop()}_claim`.slice(0, 64);
  const admin = await mysql.createConnection(`${SHARED_MYSQL}/mysql`);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const pool = createPool(`${SHARED_MYSQL}/${name}`, { connectionLimit: 1 });
  try {
    await migrateMysql(pool);
    for (let base = 0; base < rows; base += 100_000)
      await insertTaggedBacklog(pool, { from: base, count: Math.min(100_000, rows - base), tenants: 10_000 });
    await pool.query('ANALYZE TABLE jobs');
    const conn = await pool.getConnection();
    const times: number[] = [];
    try {
      for (let i = 0; i < 550; i++) {
        await conn.query('BEGIN');
        const t0 = performance.now();
        await conn.query(CLAIM_SELECT_FAIR, ['default', 0, ALL_PARTITIONS, 16]);
        const ms = performance.now() - t0;
        await conn.query('ROLLBACK');
        if (i >= 50) times.push(ms);
      }
    } finally {
      conn.release();
    }
    times.sort((a, b) => a - b);
    return percentile(times, 99);
  } finally {
    await pool.end();
    const drop = await mysql.createConnection(`${SHARED_MYSQL}/mysql`);
    await drop.query(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => drop.end());
  }
}

/**
 * The run's result without the task accounting of Run.finish (no tasks were registered, and it
 * would read every job of the run): the scenario's checks and metrics.
 */
async function result(
  run: Run,
  origin: number,
  before: ReturnType<typeof machineState>,
  metrics: Record<string, number>,
  headline: (m: Record<string, number>) => string,
): Promise<RunResult> {
  const stats = await run.sink.stats();
  const none = {
    key: [],
    taskId: [],
    scheduledFor: [],
    attempt: [],
    tenant: [],
    profile: [],
    arrival: [],
    answeredAt: [],
    status: [],
    effect: [],
    completions: [],
    tail: [],
  };
  const analysis = analyze({
    expected: new Map(),
    windowEndMs: Date.now(),
    records: none,
    jobs: new Map(),
    cancelled: new Map(),
    originMs: origin,
    withStores: false,
  });
  for (const e of run.fleet.events) run.timeline.push({ at: e.at, what: e.what });
  run.timeline.sort((a, b) => a.at - b.at);
  const usPerCall = Number(((stats.cpuMs * 1000) / Math.max(1, stats.calls)).toFixed(1));
  return {
    scenario: run.opts.scenario,
    verdict: 'INCOMPLETE',
    headline: headline(metrics),
    metrics: { ...metrics, sink_us_per_call: usPerCall },
    checks: [...run.extraChecks],
    analysis,
    samples: run.samples,
    timeline: run.timeline.map((e) => ({ t: (e.at - origin) / 1000, what: e.what })),
    notes: run.notes,
    machine: { before, after: machineState() },
    registration: { tasks: 0, seconds: 0, perSecond: 0 },
    sink: { cpuMs: stats.cpuMs, usPerCall, elu: stats.elu, eluMax1s: stats.eluMax1s },
    originMs: origin,
  };
}
