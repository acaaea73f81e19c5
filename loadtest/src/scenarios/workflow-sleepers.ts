import type { RowDataPacket } from '@dsched/mysql/pool';
import type { Check } from '../harness/analyze.ts';
import type { Run, RunResult } from '../harness/run.ts';
import { buildSeries } from '../harness/series.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
import { sinkUrl } from '../sink/protocol.ts';
import type { Scenario } from './types.ts';
import { allNodes, runRecord } from './workflow-common.ts';

// Sleep nodes at full size (issue 29, docs/workflows.md "Nodes that wait"): one run of N nodes
// (10,000 by default), root → S sleepers (1,000, each `sleep: {for: --sleep-s}`) → join, and beside
// them N − S − 2 call nodes after the root. The executor's `dsched_executor_in_flight` gauge and the
// run's sleeper jobs are sampled every 250 ms while the sleepers sleep. Sleepers hold no executor
// slot when:
//   - no sleeper's job is ever `running` (an executor never claims the sleep lane);
//   - once every call has been answered at the sink, with the sleepers still asleep, the gauge reads
//     0 (the call count) in every sample: 1,000 sleepers, none in flight;
//   - while calls run, the gauge never exceeds the calls the sink has in flight around the sample
//     (reported: gauge_over_sink_max, the most it ever read above them, from claim-to-call lag).
// Then every sleeper wakes once, none before its time (reported: wake lag), and the join is called
// once, after the last one. Loopback only; bounded by --timeout-s.

const EXECUTOR_SLOTS = 64;

interface Sample {
  at: number;
  gauge: number;
  sleepersRunning: number;
  sleepersPending: number;
}

async function executorInFlight(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('dsched_executor_in_flight{') || l.startsWith('dsched_executor_in_flight '))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/** The run's sleeper jobs: how many running (claimed by an executor) and how many pending (asleep). */
async function sleeperJobs(run: Run, workflowId: string): Promise<{ running: number; pending: number }> {
  const [rows] = await run.view.pool.query<RowDataPacket[]>(
    `SELECT SUM(state = 'running') AS running, SUM(state = 'pending') AS pending FROM jobs
      WHERE workflow_id = UNHEX(REPLACE(?, '-', '')) AND lane = 'sleep'`,
    [workflowId],
  );
  return { running: Number(rows[0]?.running ?? 0), pending: Number(rows[0]?.pending ?? 0) };
}

/** Calls in flight at the sink at any moment in [from, to]: the most, from its records. */
function sinkInFlight(arrival: number[], answered: number[], from: number, to: number): number {
  const events: [number, number][] = [];
  for (let i = 0; i < arrival.length; i++) {
    if (arrival[i]! > to || answered[i]! < from) continue;
    events.push([arrival[i]!, 1], [answered[i]!, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) {
    now += d;
    peak = Math.max(peak, now);
  }
  return peak;
}

async function sleepersRun(run: Run): Promise<RunResult> {
  const n = run.knob('nodes', 10_000);
  const sleepers = run.knob('sleepers', 1_000);
  const sleepS = run.knob('sleep-s', 60);
  const timeoutMs = run.knob('timeout-s', sleepS + 240) * 1000;
  const calls = n - sleepers - 2;
  if (calls < 0) throw new Error('--nodes must be at least --sleepers + 2');
  await run.start({
    tenants: 1,
    profiles: { work: { delayMs: [5, 50] } },
    replicas: { 'task-api': 1, 'job-api': 0, scheduler: 0, executor: 1, reconciler: 1, archiver: 0 },
    env: { EXECUTOR_DEFAULT_CONCURRENCY: String(EXECUTOR_SLOTS), RECONCILER_WORKFLOW_INTERVAL_MS: '500' },
  });
  const executor = run.fleet.of('executor')[0]!;
  await run.sink.reset();
  const target = (id: string) => ({ url: `${sinkUrl(run.sink.url, 0, 'work')}/${id}` });
  const sleeperIds = Array.from({ length: sleepers }, (_, i) => `z${String(i).padStart(5, '0')}`);
  const body = {
    name: `loadtest-sleepers-${n}`,
    nodes: [
      { id: 'root', target: target('root') },
      ...sleeperIds.map((id) => ({ id, kind: 'sleep', sleep: { for: `${sleepS}s` }, dependsOn: ['root'] })),
      ...Array.from({ length: calls }, (_, i) => {
        const id = `c${String(i).padStart(5, '0')}`;
        return { id, target: target(id), dependsOn: ['root'] };
      }),
      { id: 'join', target: target('join'), dependsOn: sleeperIds },
    ],
  };
  run.mark(`submitting ${n} nodes: ${sleepers} sleepers of ${sleepS} s, ${calls} calls`);
  const submittedAt = Date.now();
  const res = await run.taskApi.call<{ id: string }>('POST', '/v1/workflows', {
    token: run.tenants[0]!.apiKey,
    body,
    tries: 1,
    timeoutMs: 300_000,
  });
  if (res.status !== 201) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  const id = res.body.id;
  run.mark('submitted');

  // Sample until the sleepers start to wake (or the bound).
  const samples: Sample[] = [];
  const deadline = Date.now() + timeoutMs;
  let asleepSeen = false;
  while (Date.now() < deadline) {
    const at = Date.now();
    const [gauge, jobs] = await Promise.all([executorInFlight(executor.url), sleeperJobs(run, id)]);
    samples.push({ at, gauge, sleepersRunning: jobs.running, sleepersPending: jobs.pending });
    if (jobs.pending === sleepers) asleepSeen = true;
    if (asleepSeen && jobs.pending < sleepers) break;
    await sleep(250);
  }
  run.mark(`sampled ${samples.length} times; the sleepers wake`);
  let doc: { state: string; nodes: Record<string, number>; finishedAt?: string } | undefined;
  await pollUntil(
    async () => {
      const r = await run.taskApi.call<typeof doc & object>('GET', `/v1/workflows/${id}`, {
        token: run.tenants[0]!.apiKey,
      });
      doc = r.body;
      return r.status === 200 && doc.state !== 'running';
    },
    { timeoutMs: Math.max(10_000, deadline - Date.now()), intervalMs: 500 },
  );
  run.mark(`run ${doc?.state ?? 'unknown'}`);
  await sleep(1000);
  const records = await run.sink.records();
  const nodes = await allNodes(run, id);

  // Calls at the sink by node: effects and keys.
  const effects = new Map<string, number>();
  const keys = new Map<string, Set<string>>();
  for (let i = 0; i < records.key.length; i++) {
    const tail = records.tail[i]!;
    effects.set(tail, (effects.get(tail) ?? 0) + (records.effect[i] ? 1 : 0));
    keys.set(tail, (keys.get(tail) ?? new Set()).add(records.key[i]!));
  }
  const callIds = [
    'root',
    'join',
    ...Array.from({ length: calls }, (_, i) => `c${String(i).padStart(5, '0')}`),
  ];
  const lost = callIds.filter((c) => (effects.get(c) ?? 0) === 0).length;
  const double = callIds.filter((c) => (effects.get(c) ?? 0) > 1 || (keys.get(c)?.size ?? 0) > 1).length;
  const sleeperCalls = sleeperIds.filter((s) => keys.has(s)).length;
  const lastCallAnswered = Math.max(0, ...records.answeredAt.filter((_, i) => records.tail[i] !== 'join'));
  const asleep = samples.filter((s) => s.sleepersPending === sleepers);
  const idleAsleep = asleep.filter((s) => s.at > lastCallAnswered + 250);
  let gaugeOverSink = 0;
  for (const s of asleep) {
    const sink = sinkInFlight(records.arrival, records.answeredAt, s.at - 250, s.at + 250);
    gaugeOverSink = Math.max(gaugeOverSink, s.gauge - sink);
  }

  const rootDone = Date.parse(nodes.get('root')?.finishedAt ?? '') || submittedAt;
  const wakes = sleeperIds.map((s) => Date.parse(nodes.get(s)?.finishedAt ?? '') - rootDone - sleepS * 1000);
  const joinArrival = Math.min(
    ...records.arrival.filter((_, i) => records.tail[i] === 'join'),
    Number.POSITIVE_INFINITY,
  );
  const lastWake = Math.max(...sleeperIds.map((s) => Date.parse(nodes.get(s)?.finishedAt ?? '')));
  const sleepersOnce = sleeperIds.filter((s) => nodes.get(s)?.state === 'succeeded').length;
  const m: Record<string, number> = {
    expected: callIds.length,
    delivered: callIds.length - lost,
    duplicates: double,
    nodes: n,
    sleepers,
    sleep_s: sleepS,
    calls,
    lost,
    double_effects: double,
    sleeper_calls: sleeperCalls,
    run_succeeded: doc?.state === 'succeeded' ? 1 : 0,
    sleepers_succeeded: sleepersOnce,
    samples: samples.length,
    samples_asleep: asleep.length,
    samples_asleep_no_calls: idleAsleep.length,
    gauge_max_asleep: Math.max(0, ...asleep.map((s) => s.gauge)),
    gauge_max_asleep_no_calls: Math.max(0, ...idleAsleep.map((s) => s.gauge)),
    gauge_over_sink_max: gaugeOverSink,
    sleeper_jobs_running_max: Math.max(0, ...samples.map((s) => s.sleepersRunning)),
    calls_done_s: Number(((lastCallAnswered - submittedAt) / 1000).toFixed(1)),
    wake_lag_min_s: Number((Math.min(...wakes) / 1000).toFixed(2)),
    wake_lag_max_s: Number((Math.max(...wakes) / 1000).toFixed(2)),
    join_after_last_wake_s: Number(((joinArrival - lastWake) / 1000).toFixed(2)),
  };
  const checks: Check[] = [
    {
      name: 'the run succeeded, every sleeper once',
      ok: m.run_succeeded === 1 && sleepersOnce === sleepers,
      detail: `state ${doc?.state}, nodes ${JSON.stringify(doc?.nodes ?? {})}`,
    },
    {
      name: 'every call node applied once at the sink under one key; no sleeper called',
      ok: lost === 0 && double === 0 && sleeperCalls === 0,
      detail: `${lost} lost, ${double} double, ${sleeperCalls} sleeper calls`,
    },
    {
      name: "no sleeper's job was ever claimed by an executor",
      ok: m.sleeper_jobs_running_max === 0,
      detail: `at most ${m.sleeper_jobs_running_max} running in a sample`,
    },
    {
      name: `with the ${sleepers} sleepers asleep and no call left, the executor's in-flight gauge read 0 (at least 8 samples)`,
      ok: idleAsleep.length >= 8 && m.gauge_max_asleep_no_calls === 0,
      detail: `${idleAsleep.length} samples, at most ${m.gauge_max_asleep_no_calls}`,
    },
    {
      name: `while calls ran, the gauge stayed within the executor's ${EXECUTOR_SLOTS} call slots`,
      ok: (m.gauge_max_asleep ?? Number.POSITIVE_INFINITY) <= EXECUTOR_SLOTS,
      detail: `at most ${m.gauge_max_asleep}; at most ${gaugeOverSink} above the sink's calls in flight within 250 ms`,
    },
    {
      name: 'no sleeper woke before its time; the join was called after the last one',
      ok: (m.wake_lag_min_s ?? -1) >= 0 && joinArrival >= lastWake,
      detail: `wake lag ${m.wake_lag_min_s}–${m.wake_lag_max_s} s after the root's end + ${sleepS} s; join ${m.join_after_last_wake_s} s after the last wake`,
    },
  ];
  const effectTimes = records.answeredAt.filter((_, i) => records.effect[i]);
  return {
    scenario: run.opts.scenario,
    verdict: 'INCOMPLETE',
    headline: `${n} nodes with ${sleepers} sleepers of ${sleepS} s: gauge ${m.gauge_max_asleep_no_calls} in flight over ${idleAsleep.length} samples with only sleepers left (max ${m.gauge_max_asleep} while calls ran); wake lag ≤ ${m.wake_lag_max_s} s`,
    metrics: m,
    checks,
    analysis: {
      metrics: m,
      checks,
      examples: {},
      series: buildSeries(
        submittedAt,
        [],
        effectTimes,
        { critical: [], other: [] },
        { critical: [], other: [] },
      ),
    },
    ...(await runRecord(run, submittedAt, 0)),
  };
}

export const workflowSleepers: Scenario = {
  name: 'workflow-sleepers',
  summary:
    'one workflow of 10,000 nodes with 1,000 sleepers: they hold no executor slot (the in-flight gauge stays at the call count), wake once, on time',
  knobs: { nodes: 10_000, sleepers: 1_000, 'sleep-s': 60 },
  run: sleepersRun,
};
