import { binToId } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { type Analysis, type Check, examplesCollector } from '../harness/analyze.ts';
import type { ServiceName } from '../harness/fleet.ts';
import { machineState } from '../harness/machine.ts';
import { RssSampler } from '../harness/observe.ts';
import type { Run, RunResult } from '../harness/run.ts';
import { buildSeries } from '../harness/series.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
import type { Chart } from '../report/plot.ts';
import type { SinkRecords } from '../sink/protocol.ts';
import { sinkUrl } from '../sink/protocol.ts';
import type { Scenario } from './types.ts';
import { allNodes, runRecord } from './workflow-common.ts';
import {
  type ApiNode,
  CHAIN,
  callsByNode,
  type Graph,
  type HeldVerdict,
  judgeHeld,
  judgeNodes,
  type NodeCalls,
  type NodeVerdict,
  workflowGraph,
} from './workflow-judge.ts';

// One workflow of N nodes (100,000 by default) through the real fleet: multi-parent edges, a
// fan-out, fan-ins, a chain, variable call durations, one node that fails twice and succeeds on
// its third attempt. An executor is killed -9 while it holds node calls (restarted 3 s later),
// then a reconciler. Judged from the sink (every node's calls arrive on /s/0/<profile>/<nodeId>,
// so the target knows the node without the stores) and from the API's node list (each node's
// job id, its Idempotency-Key):
//
//   lost            nodes whose effect the sink never applied
//   double_effects  effects beyond one per node: a node called under two keys, or under a key that
//                   is not its job's
//   stuck_runs      the run still `running` when the harness stops waiting
//   held_rerun      nodes the killed executor held (claimed, not finished) that the target got a
//                   call of before the kill and again after it: with their one key; their children
//                   applied once under one key, first called after the re-run's answer
//                   (held_children_double, held_children_early: 0; held_children_extra_calls counts
//                   a child's own redeliveries, same key, when its lease ran out on a loaded machine)

const SERVICES_RUN: ServiceName[] = ['task-api', 'job-api', 'executor', 'reconciler', 'archiver'];

/** The run's document as GET /v1/workflows/{id} answers it. */
interface RunDoc {
  state: string;
  nodes: Record<string, number>;
  finishedAt?: string;
}

/** The fleet (two executors, two reconcilers), the sink's profiles, short leases. */
async function startFleet(run: Run): Promise<RssSampler> {
  await run.start({
    tenants: 1,
    profiles: {
      fast: {},
      work: { delayMs: [5, 50] },
      slow: { delayMs: [200, 800] },
      flaky: { failAttempts: 2 },
    },
    replicas: { 'task-api': 1, 'job-api': 1, scheduler: 0, executor: 2, reconciler: 2, archiver: 1 },
    // A killed executor's claims come back after the lease: 5 s keeps a small run short.
    env: { EXECUTOR_LEASE_S: '5', RECONCILER_INTERVAL_MS: '500', RECONCILER_WORKFLOW_INTERVAL_MS: '1000' },
  });
  const rss = new RssSampler(() => run.fleet.instances, 1000);
  run.cleanups.push(async () => rss.stop());
  return rss;
}

/** POST /v1/workflows, once: a submission is not idempotent, a retry after a timeout could store a second run. */
async function submitGraph(
  run: Run,
  graph: Graph,
): Promise<{
  wf: { id: string; edgeCount: number; createdAt: string };
  submittedAt: number;
  submitS: number;
}> {
  const n = graph.nodes.length;
  const body = {
    name: `loadtest-${n}`,
    nodes: graph.nodes.map((node) => ({
      id: node.id,
      target: { url: `${sinkUrl(run.sink.url, 0, node.profile)}/${node.id}` },
      retry: { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 1000 },
      ...(node.dependsOn.length > 0 ? { dependsOn: node.dependsOn } : {}),
    })),
  };
  run.mark(`submitting a workflow of ${n} nodes`);
  const submittedAt = Date.now();
  const res = await run.taskApi.call<{ id: string; edgeCount: number; createdAt: string }>(
    'POST',
    '/v1/workflows',
    { token: run.tenants[0]!.apiKey, body, tries: 1, timeoutMs: 600_000 },
  );
  if (res.status !== 201) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  const submitS = (Date.now() - submittedAt) / 1000;
  run.mark(`submitted in ${submitS.toFixed(1)} s: ${n} nodes, ${res.body.edgeCount} edges`);
  return { wf: res.body, submittedAt, submitS };
}

/**
 * kill -9 an executor while it holds node jobs: those ids, read just before the kill, must run
 * again. It is killed once the target has had a call of one of them (a claim just taken has called
 * none yet, and would show no re-run). Then, with `killReconciler`, a reconciler at ~60%.
 */
async function killMidRun(
  run: Run,
  n: number,
  killReconciler: boolean,
): Promise<{ killAt: number; held: Set<string> }> {
  const victim = run.fleet.of('executor')[0]!;
  let killAt = Number.POSITIVE_INFINITY;
  const held = new Set<string>();
  if (await run.waitEffects(Math.floor(n * 0.3), 120_000 + n * 20)) {
    await pollUntil(
      async () => {
        const [rows] = await run.view.pool.query<RowDataPacket[]>(
          "SELECT id FROM jobs WHERE claimed_by = ? AND state = 'running' AND workflow_id IS NOT NULL",
          [victim.id],
        );
        const ids = rows.map((r) => binToId(r.id as Buffer));
        held.clear();
        for (const id of ids) held.add(id);
        return ids.length > 0 && (await run.sink.seen(ids)).length > 0;
      },
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    killAt = Date.now();
    run.mark(`kill -9 ${victim.id} holding ${held.size} node jobs, ~30% of the nodes done`);
    await run.fleet.kill(victim, { restartAfterMs: 3000 });
  } else run.notes.push('30% of the nodes never finished: the executor kill did not happen');
  if (killReconciler && (await run.waitEffects(Math.floor(n * 0.6), 120_000 + n * 20))) {
    const rec = run.fleet.of('reconciler')[0]!;
    run.mark(`kill -9 ${rec.id}, ~60% of the nodes done`);
    await run.fleet.kill(rec, { restartAfterMs: 3000 });
  }
  return { killAt, held };
}

/** Waits until the run ends (succeeded, failed or cancelled); still running at the bound is a stuck run. */
async function awaitRunEnd(run: Run, id: string, timeoutMs: number): Promise<RunDoc | undefined> {
  let doc: RunDoc | undefined;
  await pollUntil(
    async () => {
      const r = await run.taskApi.call<RunDoc>('GET', `/v1/workflows/${id}`, {
        token: run.tenants[0]!.apiKey,
      });
      doc = r.body;
      return r.status === 200 && doc.state !== 'running';
    },
    { timeoutMs, intervalMs: 500 },
  );
  run.mark(`run ${doc?.state ?? 'unknown'} (${JSON.stringify(doc?.nodes ?? {})})`);
  return doc;
}

interface Seen {
  graph: Graph;
  wf: { id: string; edgeCount: number; createdAt: string };
  doc: RunDoc | undefined;
  records: SinkRecords;
  calls: Map<string, NodeCalls>;
  nodes: Map<string, ApiNode>;
  held: Set<string>;
  nodeVerdict: NodeVerdict;
  heldVerdict: HeldVerdict;
  submittedAt: number;
  submitS: number;
  endedAt: number;
}

function workflowMetrics(s: Seen): Record<string, number> {
  const { graph, calls, doc, nodeVerdict: v, heldVerdict: h } = s;
  const n = graph.nodes.length;
  const known = new Set(graph.nodes.map((x) => x.id));
  const flaky = calls.get(graph.flaky);
  const finishedMs = doc?.finishedAt ? Date.parse(doc.finishedAt) : s.endedAt;
  const createdMs = Date.parse(s.wf.createdAt);
  const completeS = (finishedMs - s.submittedAt) / 1000;
  return {
    // The harness's words (the verdict line): a node is an expected effect.
    expected: n,
    delivered: graph.nodes.filter((x) => (calls.get(x.id)?.effects ?? 0) > 0).length,
    duplicates: v.doubleEffects,
    nodes: n,
    edges: s.wf.edgeCount,
    called: [...calls.keys()].filter((k) => known.has(k)).length,
    succeeded: doc?.nodes.succeeded ?? 0,
    lost: v.lost,
    double_effects: v.doubleEffects,
    stuck_runs: doc?.state === 'running' ? 1 : 0,
    run_succeeded: doc?.state === 'succeeded' ? 1 : 0,
    calls: s.records.key.length,
    redeliveries: v.redeliveries,
    unknown_calls: v.unknownCalls,
    order_violations: v.orderViolations,
    flaky_calls: flaky?.calls ?? 0,
    flaky_attempt: s.nodes.get(graph.flaky)?.attempt ?? 0,
    held_at_kill: s.held.size,
    held_rerun: h.heldRerun,
    held_children: h.heldChildren,
    held_children_double: h.heldChildrenDouble,
    held_children_early: h.heldChildrenEarly,
    held_children_extra_calls: h.heldChildrenExtraCalls,
    submit_s: Number(s.submitS.toFixed(2)),
    complete_s: Number(completeS.toFixed(1)),
    nodes_per_s: Math.round(n / Math.max(0.001, (finishedMs - createdMs) / 1000)),
  };
}

function workflowChecks(s: Seen, m: Record<string, number>, timeoutMs: number): Check[] {
  const { doc, nodeVerdict: v, heldVerdict: h } = s;
  const flaky = s.calls.get(s.graph.flaky);
  const flakyAttempts = flaky?.attempts.slice().sort((x, y) => x - y) ?? [];
  return [
    {
      name: 'the run succeeded, every node succeeded',
      ok: m.run_succeeded === 1 && m.succeeded === m.nodes,
      detail: `state ${doc?.state}, nodes ${JSON.stringify(doc?.nodes ?? {})}`,
    },
    {
      name: 'no node lost (every node applied once at the sink)',
      ok: v.lost === 0,
      detail: `${v.lost} lost`,
    },
    {
      name: "no node's effect applied twice (one key per node, its job's)",
      ok: v.doubleEffects === 0 && v.unknownCalls === 0,
      detail: `${v.doubleEffects} double effects, ${v.unknownCalls} calls on no node`,
    },
    { name: 'no stuck run', ok: m.stuck_runs === 0, detail: `waited up to ${timeoutMs / 1000} s` },
    {
      name: 'every child called after its parents answered',
      ok: v.orderViolations === 0,
      detail: `${v.orderViolations} children called early`,
    },
    {
      name: 'the flaky node failed twice and succeeded on its third attempt, one key',
      ok: flakyAttempts.join() === '1,2,3' && m.flaky_attempt === 3 && flaky?.keys.size === 1,
      detail: `attempts seen [${flakyAttempts.join(', ')}], node attempt ${m.flaky_attempt}`,
    },
    {
      name: "the killed executor's held nodes ran again with their key, their children once",
      ok: h.heldRerun > 0 && h.heldChildrenDouble === 0 && h.heldChildrenEarly === 0,
      detail: `${s.held.size} held at the kill, ${h.heldRerun} called before it and again after; ${h.heldChildren} children: ${h.heldChildrenDouble} not applied exactly once under one key, ${h.heldChildrenEarly} called before their parent's re-run answered, ${h.heldChildrenExtraCalls} redeliveries of their own`,
    },
  ];
}

/** Largest replica's RSS per service, idle (before the submission) and at most (after it). */
function rssMetrics(run: Run, rss: RssSampler, idleUntil: number, m: Record<string, number>): void {
  for (const service of SERVICES_RUN) {
    const names = run.fleet.of(service).map((i) => `${i.name}-${i.index}`);
    const idle = Math.max(0, ...names.flatMap((x) => rss.series(x, 0, idleUntil)));
    const max = Math.max(0, ...names.flatMap((x) => rss.series(x, idleUntil)));
    const key = service.replace('-', '_');
    m[`rss_${key}_idle_mib`] = Math.round(idle);
    m[`rss_${key}_max_mib`] = Math.round(max);
  }
  run.notes.push(
    `RSS (MiB, largest replica) idle → max: ${SERVICES_RUN.map(
      (x) => `${x} ${m[`rss_${x.replace('-', '_')}_idle_mib`]} → ${m[`rss_${x.replace('-', '_')}_max_mib`]}`,
    ).join(', ')}`,
  );
}

function graphNote(graph: Graph): string {
  const count = (prefix: string) => graph.nodes.filter((x) => x.id.startsWith(prefix)).length;
  return `graph: root → ${count('a')} (fan-out) → ${count('b')} (two a parents each, every fifth also after the b before it) → ${count(
    'c',
  )} fan-ins → join, beside a chain of ${CHAIN}; calls instant, 5–50 ms (a tenth of the b nodes and the chain) or 200–800 ms (every 997th b)`;
}

function rssChart(run: Run, rss: RssSampler, n: number, originMs: number): Chart {
  return {
    title: `workflow: RSS per service (largest replica), ${n} nodes`,
    xLabel: 'seconds since the submission',
    yLabel: 'RSS, MiB',
    lines: SERVICES_RUN.map((service, i) => ({
      name: service,
      color: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd'][i]!,
      points: rss.points.map((p) => [
        (p.t - originMs) / 1000,
        Math.max(0, ...run.fleet.of(service).map((inst) => p.byInstance[`${inst.name}-${inst.index}`] ?? 0)),
      ]),
    })),
  };
}

/** The run's result: the judgement, the effects' series, the fleet's events, the sink's cost, the RSS chart. */
async function workflowResult(
  run: Run,
  seen: Seen,
  judged: Omit<Analysis, 'series'>,
  rss: RssSampler,
): Promise<RunResult> {
  const { graph, wf, records, submittedAt, submitS } = seen;
  const { metrics: m, checks } = judged;
  const n = graph.nodes.length;
  const effectTimes: number[] = [];
  for (let i = 0; i < records.key.length; i++)
    if (records.effect[i]) effectTimes.push(records.answeredAt[i] as number);
  const analysis: Analysis = {
    ...judged,
    series: buildSeries(
      submittedAt,
      [],
      effectTimes,
      { critical: [], other: [] },
      { critical: [], other: [] },
    ),
  };
  return {
    scenario: run.opts.scenario,
    verdict: 'INCOMPLETE',
    headline: `${n} nodes, ${wf.edgeCount} edges: ${m.complete_s} s to complete (${m.nodes_per_s} nodes/s), submit ${m.submit_s} s; ${m.held_rerun} held nodes re-run, ${seen.nodeVerdict.redeliveries} redeliveries absorbed`,
    metrics: m,
    checks,
    analysis,
    ...(await runRecord(run, submittedAt, submitS)),
    charts: { rss: rssChart(run, rss, n, submittedAt) },
  };
}

async function workflowRun(run: Run): Promise<RunResult> {
  const n = run.knob('nodes', 100_000);
  const rss = await startFleet(run);
  const graph = workflowGraph(n);
  // Idle RSS: the fleet up, nothing submitted yet.
  await run.sink.reset();
  await sleep(3000);
  const idleUntil = Date.now();

  const { wf, submittedAt, submitS } = await submitGraph(run, graph);
  const { killAt, held } = await killMidRun(run, n, run.knob('kill-reconciler', 1) > 0);
  const timeoutMs = run.knob('timeout-s', Math.round(120 + n * 0.02)) * 1000;
  const doc = await awaitRunEnd(run, wf.id, timeoutMs);
  const endedAt = Date.now();
  rss.stop();
  // Calls a node job might still get (none expected once the run ended) land before the count.
  await sleep(1000);
  const records = await run.sink.records();
  const nodes = await allNodes(run, wf.id);
  const calls = callsByNode(records, killAt);

  const { examples, note } = examplesCollector();
  const seen: Seen = {
    graph,
    wf,
    doc,
    records,
    calls,
    nodes,
    held,
    nodeVerdict: judgeNodes(graph, calls, nodes, note),
    heldVerdict: judgeHeld(graph, held, calls, nodes, note),
    submittedAt,
    submitS,
    endedAt,
  };
  const m = workflowMetrics(seen);
  m.restarts = run.fleet.events.filter((e) => e.what.includes('restarted')).length;
  run.notes.push(graphNote(graph));
  rssMetrics(run, rss, idleUntil, m);
  const checks = workflowChecks(seen, m, timeoutMs);

  return workflowResult(run, seen, { metrics: m, checks, examples }, rss);
}

export const workflow: Scenario = {
  name: 'workflow',
  summary:
    'one workflow of 100,000 nodes (fan-out, multi-parent edges, fan-ins, a flaky node); an executor, then a reconciler, kill -9 mid-run',
  knobs: { nodes: 100_000, 'kill-reconciler': 1 },
  run: workflowRun,
};
