import { machineState } from '../harness/machine.ts';
import type { Run, RunResult } from '../harness/run.ts';
import type { ApiNode } from './workflow-judge.ts';

// What the workflow scenarios (workflow.ts, workflow-sleepers.ts) share: reading a run's nodes back
// through the API, and the parts of a result that are not the scenario's own judgement.

/** Every node of a run, by id, through the API's node list. */
export async function allNodes(run: Run, id: string): Promise<Map<string, ApiNode>> {
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

/** What a workflow run's result carries besides its judgement: the timeline with the fleet's events, the machine, the sink's cost. */
export async function runRecord(
  run: Run,
  originMs: number,
  submitS: number,
): Promise<
  Pick<RunResult, 'samples' | 'timeline' | 'notes' | 'machine' | 'registration' | 'sink' | 'originMs'>
> {
  for (const e of run.fleet.events) run.timeline.push({ at: e.at, what: e.what });
  run.timeline.sort((x, y) => x.at - y.at);
  const stats = await run.sink.stats();
  return {
    samples: run.samples,
    timeline: run.timeline.map((e) => ({ t: (e.at - originMs) / 1000, what: e.what })),
    notes: run.notes,
    machine: { before: run.machineBefore, after: machineState() },
    registration: { tasks: 0, seconds: submitS, perSecond: 0 },
    sink: {
      cpuMs: stats.cpuMs,
      usPerCall: Number(((stats.cpuMs * 1000) / Math.max(1, stats.calls)).toFixed(1)),
      elu: stats.elu,
      eluMax1s: stats.eluMax1s,
    },
    originMs,
  };
}
