import { binToId } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import type { Analysis, Check } from '../harness/analyze.ts';
import type { ServiceName } from '../harness/fleet.ts';
import { machineState } from '../harness/machine.ts';
import { RssSampler } from '../harness/observe.ts';
import type { Run, RunResult } from '../harness/run.ts';
import { buildSeries } from '../harness/series.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
import type { SinkRecords } from '../sink/protocol.ts';
import { sinkUrl } from '../sink/protocol.ts';
import type { Scenario } from './types.ts';

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

/** Calls of a node, from the sink's records. */
interface NodeCalls {
  keys: Set<string>;
  calls: number;
  effects: number;
  attempts: number[];
  firstArrival: number;
  lastOkAnswer: number;
  /** Calls after the kill. */
  callsAfterKill: number;
}

interface Graph {
  nodes: { id: string; dependsOn: string[]; profile: string }[];
  flaky: string;
}

const CHAIN = 20;

/**
 * root → a fan-out of A nodes; B nodes with two `a` parents each (some also after the `b` before
 * them); C fan-ins of about B / C `b` parents each; a chain of 20 off the root; `join` after every
 * fan-in and the chain's end. Every parent comes earlier in the list, so it is a DAG; its depth is
 * the chain's, whatever N.
 */
export function workflowGraph(n: number): Graph {
  const a = Math.max(2, Math.floor(n / 100));
  const c = Math.max(1, Math.floor(n / 100));
  const b = n - 2 - CHAIN - a - c;
  if (b < 10) throw new Error(`--nodes ${n}: at least ${CHAIN + 16} nodes`);
  const nodes: Graph['nodes'] = [{ id: 'root', dependsOn: [], profile: 'fast' }];
  for (let i = 0; i < CHAIN; i++)
    nodes.push({ id: `chain${i}`, dependsOn: [i === 0 ? 'root' : `chain${i - 1}`], profile: 'work' });
  for (let i = 0; i < a; i++) nodes.push({ id: `a${i}`, dependsOn: ['root'], profile: 'fast' });
  const flaky = `b${Math.floor(b / 2)}`;
  for (let i = 0; i < b; i++) {
    const p1 = i % a;
    let p2 = (i * 7 + 3) % a;
    if (p2 === p1) p2 = (p1 + 1) % a;
    const parents = [`a${p1}`, `a${p2}`];
    if (i % 5 === 4) parents.push(`b${i - 1}`);
    const id = `b${i}`;
    const profile = id === flaky ? 'flaky' : i % 997 === 0 ? 'slow' : i % 10 === 0 ? 'work' : 'fast';
    nodes.push({ id, dependsOn: parents, profile });
  }
  for (let j = 0; j < c; j++) {
    const parents: string[] = [];
    for (let i = j; i < b; i += c) parents.push(`b${i}`);
    nodes.push({ id: `c${j}`, dependsOn: parents, profile: 'fast' });
  }
  nodes.push({
    id: 'join',
    dependsOn: [...Array.from({ length: c }, (_, j) => `c${j}`), `chain${CHAIN - 1}`],
    profile: 'fast',
  });
  return { nodes, flaky };
}

function callsByNode(r: SinkRecords, killAt: number): Map<string, NodeCalls> {
  const by = new Map<string, NodeCalls>();
  for (let i = 0; i < r.key.length; i++) {
    const node = r.tail[i] ?? '';
    let c = by.get(node);
    if (!c) {
      c = {
        keys: new Set(),
        calls: 0,
        effects: 0,
        attempts: [],
        firstArrival: Number.POSITIVE_INFINITY,
        lastOkAnswer: 0,
        callsAfterKill: 0,
      };
      by.set(node, c);
    }
    const arrival = r.arrival[i] as number;
    const status = r.status[i] ?? 0;
    c.keys.add(r.key[i] ?? '');
    c.calls++;
    c.effects += r.effect[i] ?? 0;
    c.attempts.push(r.attempt[i] ?? 0);
    c.firstArrival = Math.min(c.firstArrival, arrival);
    if (status >= 200 && status < 300) c.lastOkAnswer = Math.max(c.lastOkAnswer, r.answeredAt[i] as number);
    if (arrival > killAt) c.callsAfterKill++;
  }
  return by;
}

interface ApiNode {
  id: string;
  state: string;
  attempt: number;
  jobId?: string;
}

async function allNodes(run: Run, id: string): Promise<Map<string, ApiNode>> {
  const out = new Map<string, ApiNode>();
  let token: string | undefined;
  do {
    const q = `limit=500${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
    const res = await run.taskApi.call<{ nodes: ApiNode[]; nextPageToken?: string }>(
      'GET',
      `/v1/workflows/${id}/nodes?${q}`,
      { token: run.tenants[0]!.apiKey },
    );
    if (res.status !== 200) throw new Error(`node list: ${res.status} ${JSON.stringify(res.body)}`);
    for (const n of res.body.nodes) out.set(n.id, n);
    token = res.body.nextPageToken;
  } while (token);
  return out;
}

const SERVICES_RUN: ServiceName[] = ['task-api', 'job-api', 'executor', 'reconciler', 'archiver'];

async function workflowRun(run: Run): Promise<RunResult> {
  const n = run.knob('nodes', 100_000);
  const killReconciler = run.knob('kill-reconciler', 1) > 0;
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
  const graph = workflowGraph(n);
  const tenant = run.tenants[0]!;
  const body = {
    name: `loadtest-${n}`,
    nodes: graph.nodes.map((node) => ({
      id: node.id,
      target: { url: `${sinkUrl(run.sink.url, 0, node.profile)}/${node.id}` },
      retry: { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 1000 },
      ...(node.dependsOn.length > 0 ? { dependsOn: node.dependsOn } : {}),
    })),
  };
  // Idle RSS: the fleet up, nothing submitted yet.
  await run.sink.reset();
  await sleep(3000);
  const idleUntil = Date.now();

  run.mark(`submitting a workflow of ${n} nodes`);
  const submittedAt = Date.now();
  const res = await run.taskApi.call<{ id: string; edgeCount: number; createdAt: string }>(
    'POST',
    '/v1/workflows',
    // Once: a submission is not idempotent, a retry after a timeout could store a second run.
    { token: tenant.apiKey, body, tries: 1, timeoutMs: 600_000 },
  );
  if (res.status !== 201) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  const wf = res.body;
  const submitS = (Date.now() - submittedAt) / 1000;
  run.mark(`submitted in ${submitS.toFixed(1)} s: ${n} nodes, ${wf.edgeCount} edges`);

  // kill -9 an executor while it holds node jobs: those ids, read just before the kill, must run again.
  // It is killed once the target has had a call of one of them (a claim just taken has called none
  // yet, and would show no re-run).
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

  // The run ends: succeeded, failed or cancelled; still running at the bound is a stuck run.
  const timeoutMs = run.knob('timeout-s', Math.round(120 + n * 0.02)) * 1000;
  let doc: { state: string; nodes: Record<string, number>; finishedAt?: string } | undefined;
  await pollUntil(
    async () => {
      const r = await run.taskApi.call<typeof doc & object>('GET', `/v1/workflows/${wf.id}`, {
        token: tenant.apiKey,
      });
      doc = r.body;
      return r.status === 200 && doc.state !== 'running';
    },
    { timeoutMs, intervalMs: 500 },
  );
  const endedAt = Date.now();
  run.mark(`run ${doc?.state ?? 'unknown'} (${JSON.stringify(doc?.nodes ?? {})})`);
  rss.stop();
  // Calls a node job might still get (none expected once the run ended) land before the count.
  await sleep(1000);
  const records = await run.sink.records();
  const nodes = await allNodes(run, wf.id);
  const calls = callsByNode(records, killAt);

  const known = new Set(graph.nodes.map((x) => x.id));
  const examples: Record<string, string[]> = {};
  const note = (kind: string, text: string) => {
    const list = examples[kind] ?? [];
    examples[kind] = list;
    if (list.length < 5) list.push(text);
  };
  let lost = 0;
  let doubleEffects = 0;
  let redeliveries = 0;
  let orderViolations = 0;
  for (const node of graph.nodes) {
    const c = calls.get(node.id);
    const job = nodes.get(node.id)?.jobId;
    if (!c || c.effects === 0) {
      lost++;
      note('lost', `${node.id}: ${c ? `${c.calls} calls, no effect` : 'never called'}`);
      continue;
    }
    const foreign = [...c.keys].filter((k) => k !== job);
    if (c.effects > 1 || foreign.length > 0) {
      doubleEffects += Math.max(c.effects - 1, foreign.length > 0 ? 1 : 0);
      note('double effect', `${node.id}: keys ${[...c.keys].join(', ')} (job ${job}), ${c.effects} effects`);
    }
    redeliveries += c.calls - c.effects - (node.id === graph.flaky ? 2 : 0);
    // A child's first call comes after every parent's last successful answer (the walk, once).
    for (const p of node.dependsOn) {
      const pc = calls.get(p);
      if (pc && c.firstArrival < pc.lastOkAnswer) {
        orderViolations++;
        note('child before parent', `${node.id} called before ${p} answered for the last time`);
      }
    }
  }
  let unknownCalls = 0;
  for (const [tail, c] of calls)
    if (!known.has(tail)) {
      unknownCalls += c.calls;
      note('unknown', `${c.calls} calls on /${tail}`);
    }

  // The killed executor's held nodes: called again with their key, their children once.
  const byJob = new Map<string, string>();
  for (const [id, x] of nodes) if (x.jobId) byJob.set(x.jobId, id);
  const children = new Map<string, string[]>();
  for (const node of graph.nodes)
    for (const p of node.dependsOn) children.set(p, [...(children.get(p) ?? []), node.id]);
  let heldRerun = 0;
  let heldChildren = 0;
  let heldChildrenExtraCalls = 0;
  let heldChildrenEarly = 0;
  let heldChildrenDouble = 0;
  const heldNodes = new Set([...held].map((k) => byJob.get(k)).filter((x): x is string => x !== undefined));
  for (const id of heldNodes) {
    // Called before the kill and again after it (a held job not called yet is just called later).
    const c = calls.get(id);
    if (!c || c.callsAfterKill === 0 || c.callsAfterKill === c.calls) continue;
    heldRerun++;
    for (const child of children.get(id) ?? []) {
      if (heldNodes.has(child)) continue;
      heldChildren++;
      const cc = calls.get(child);
      // Ran once: its job made once (one key, one effect), first called after the re-run parent's
      // last answer. Calls beyond one with that key are the child's own redeliveries (its lease
      // ran out on a loaded machine: at least once), counted apart.
      if (cc?.effects !== 1 || cc.keys.size !== 1) {
        heldChildrenDouble++;
        note(
          'held child',
          `${child} (child of re-run ${id}): ${cc?.effects ?? 0} effects, ${cc?.keys.size ?? 0} keys`,
        );
      }
      if (cc && cc.firstArrival < c.lastOkAnswer) {
        heldChildrenEarly++;
        note('held child', `${child} called before its re-run parent ${id} answered`);
      }
      heldChildrenExtraCalls += Math.max(0, (cc?.calls ?? 0) - 1 - (child === graph.flaky ? 2 : 0));
    }
  }
  const flaky = calls.get(graph.flaky);
  const flakyAttempts = flaky?.attempts.slice().sort((x, y) => x - y) ?? [];

  const finishedMs = doc?.finishedAt ? Date.parse(doc.finishedAt) : endedAt;
  const createdMs = Date.parse(wf.createdAt);
  const completeS = (finishedMs - submittedAt) / 1000;
  const m: Record<string, number> = {
    // The harness's words (the verdict line): a node is an expected effect.
    expected: n,
    delivered: graph.nodes.filter((x) => (calls.get(x.id)?.effects ?? 0) > 0).length,
    duplicates: doubleEffects,
    nodes: n,
    edges: wf.edgeCount,
    called: [...calls.keys()].filter((k) => known.has(k)).length,
    succeeded: doc?.nodes.succeeded ?? 0,
    lost,
    double_effects: doubleEffects,
    stuck_runs: doc?.state === 'running' ? 1 : 0,
    run_succeeded: doc?.state === 'succeeded' ? 1 : 0,
    calls: records.key.length,
    redeliveries,
    unknown_calls: unknownCalls,
    order_violations: orderViolations,
    flaky_calls: flaky?.calls ?? 0,
    flaky_attempt: nodes.get(graph.flaky)?.attempt ?? 0,
    held_at_kill: held.size,
    held_rerun: heldRerun,
    held_children: heldChildren,
    held_children_double: heldChildrenDouble,
    held_children_early: heldChildrenEarly,
    held_children_extra_calls: heldChildrenExtraCalls,
    submit_s: Number(submitS.toFixed(2)),
    complete_s: Number(completeS.toFixed(1)),
    nodes_per_s: Math.round(n / Math.max(0.001, (finishedMs - createdMs) / 1000)),
    restarts: run.fleet.events.filter((e) => e.what.includes('restarted')).length,
  };
  for (const service of SERVICES_RUN) {
    const names = run.fleet.of(service).map((i) => `${i.name}-${i.index}`);
    const idle = Math.max(0, ...names.flatMap((x) => rss.series(x, 0, idleUntil)));
    const max = Math.max(0, ...names.flatMap((x) => rss.series(x, idleUntil)));
    const key = service.replace('-', '_');
    m[`rss_${key}_idle_mib`] = Math.round(idle);
    m[`rss_${key}_max_mib`] = Math.round(max);
  }
  const checks: Check[] = [
    {
      name: 'the run succeeded, every node succeeded',
      ok: m.run_succeeded === 1 && m.succeeded === n,
      detail: `state ${doc?.state}, nodes ${JSON.stringify(doc?.nodes ?? {})}`,
    },
    { name: 'no node lost (every node applied once at the sink)', ok: lost === 0, detail: `${lost} lost` },
    {
      name: "no node's effect applied twice (one key per node, its job's)",
      ok: doubleEffects === 0 && unknownCalls === 0,
      detail: `${doubleEffects} double effects, ${unknownCalls} calls on no node`,
    },
    { name: 'no stuck run', ok: m.stuck_runs === 0, detail: `waited up to ${timeoutMs / 1000} s` },
    {
      name: 'every child called after its parents answered',
      ok: orderViolations === 0,
      detail: `${orderViolations} children called early`,
    },
    {
      name: 'the flaky node failed twice and succeeded on its third attempt, one key',
      ok: flakyAttempts.join() === '1,2,3' && m.flaky_attempt === 3 && flaky?.keys.size === 1,
      detail: `attempts seen [${flakyAttempts.join(', ')}], node attempt ${m.flaky_attempt}`,
    },
    {
      name: "the killed executor's held nodes ran again with their key, their children once",
      ok: heldRerun > 0 && heldChildrenDouble === 0 && heldChildrenEarly === 0,
      detail: `${held.size} held at the kill, ${heldRerun} called before it and again after; ${heldChildren} children: ${heldChildrenDouble} not applied exactly once under one key, ${heldChildrenEarly} called before their parent's re-run answered, ${heldChildrenExtraCalls} redeliveries of their own`,
    },
  ];
  run.notes.push(
    `graph: root → ${graph.nodes.filter((x) => x.id.startsWith('a')).length} (fan-out) → ${
      graph.nodes.filter((x) => x.id.startsWith('b')).length
    } (two a parents each, every fifth also after the b before it) → ${
      graph.nodes.filter((x) => x.id.startsWith('c')).length
    } fan-ins → join, beside a chain of ${CHAIN}; calls instant, 5–50 ms (a tenth of the b nodes and the chain) or 200–800 ms (every 997th b)`,
    `RSS (MiB, largest replica) idle → max: ${SERVICES_RUN.map(
      (s) => `${s} ${m[`rss_${s.replace('-', '_')}_idle_mib`]} → ${m[`rss_${s.replace('-', '_')}_max_mib`]}`,
    ).join(', ')}`,
  );
  const effectTimes: number[] = [];
  for (let i = 0; i < records.key.length; i++)
    if (records.effect[i]) effectTimes.push(records.answeredAt[i] as number);
  const analysis: Analysis = {
    metrics: m,
    checks,
    series: buildSeries(
      submittedAt,
      [],
      effectTimes,
      { critical: [], other: [] },
      { critical: [], other: [] },
    ),
    examples,
  };
  for (const e of run.fleet.events) run.timeline.push({ at: e.at, what: e.what });
  run.timeline.sort((x, y) => x.at - y.at);
  const stats = await run.sink.stats();
  return {
    scenario: run.opts.scenario,
    verdict: 'INCOMPLETE',
    headline: `${n} nodes, ${wf.edgeCount} edges: ${m.complete_s} s to complete (${m.nodes_per_s} nodes/s), submit ${m.submit_s} s; ${m.held_rerun} held nodes re-run, ${redeliveries} redeliveries absorbed`,
    metrics: m,
    checks,
    analysis,
    samples: run.samples,
    timeline: run.timeline.map((e) => ({ t: (e.at - submittedAt) / 1000, what: e.what })),
    notes: run.notes,
    machine: { before: run.machineBefore, after: machineState() },
    registration: { tasks: 0, seconds: submitS, perSecond: 0 },
    sink: {
      cpuMs: stats.cpuMs,
      usPerCall: Number(((stats.cpuMs * 1000) / Math.max(1, stats.calls)).toFixed(1)),
      elu: stats.elu,
      eluMax1s: stats.eluMax1s,
    },
    originMs: submittedAt,
    charts: {
      rss: {
        title: `workflow: RSS per service (largest replica), ${n} nodes`,
        xLabel: 'seconds since the submission',
        yLabel: 'RSS, MiB',
        lines: SERVICES_RUN.map((service, i) => ({
          name: service,
          color: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd'][i]!,
          points: rss.points.map((p) => [
            (p.t - submittedAt) / 1000,
            Math.max(
              0,
              ...run.fleet.of(service).map((inst) => p.byInstance[`${inst.name}-${inst.index}`] ?? 0),
            ),
          ]),
        })),
      },
    },
  };
}

export const workflow: Scenario = {
  name: 'workflow',
  summary:
    'one workflow of 100,000 nodes (fan-out, multi-parent edges, fan-ins, a flaky node); an executor, then a reconciler, kill -9 mid-run',
  knobs: { nodes: 100_000, 'kill-reconciler': 1 },
  run: workflowRun,
};
