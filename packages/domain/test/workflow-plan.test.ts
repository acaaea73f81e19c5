import { describe, expect, it } from 'vitest';
import {
  checkNodeTimes,
  checkTaskWorkflow,
  createWorkflowSchema,
  DschedError,
  laneFor,
  nodeKindTarget,
  planWorkflow,
  SLEEP_LANE,
  signalToken,
  signalTokenHash,
  toWorkflowNodeSpec,
  WAIT_LANE,
  waitTimeoutOutcome,
  withSignalHashes,
} from '../src/index.ts';

const NOW = Date.parse('2026-12-04T09:00:00Z');
const target = { url: 'https://example.test/hook', method: 'POST' };
const request = (nodes: unknown[], extra: Record<string, unknown> = {}) =>
  createWorkflowSchema.parse({ name: 'w', nodes, ...extra });

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof DschedError) return err.details.map((d) => d.field);
    throw err;
  }
  return [];
}

describe('toWorkflowNodeSpec', () => {
  it('a call node keeps its target, takes the lane its priority and timeout imply, and never wakes', () => {
    const req = request([{ id: 'a', target, priority: 'critical', dependsOn: [] }]);
    const spec = toWorkflowNodeSpec(req.nodes[0]!);
    expect(spec.kind).toBe('call');
    expect(spec.target.url).toBe(target.url);
    expect(spec.wake).toBeNull();
    expect(spec.lane).toBe(laneFor('critical', spec.target.timeoutMs));
    expect(spec.parents).toEqual([]);
  });

  it('a sleep for a duration wakes that long after it is reached, in the sleep lane, calling nothing', () => {
    const req = request([
      { id: 'a', target },
      { id: 's', kind: 'sleep', sleep: { for: '1h30m' }, dependsOn: ['a'] },
    ]);
    const spec = toWorkflowNodeSpec(req.nodes[1]!);
    expect(spec).toMatchObject({ id: 's', kind: 'sleep', lane: SLEEP_LANE, wake: { delayMs: 5_400_000 } });
    expect(spec.parents).toEqual(['a']);
    expect(spec.flowControl).toBeNull();
    expect(spec.target.url).toBe('dsched:sleep');
  });

  it('a sleep until a time wakes at that instant', () => {
    const req = request([{ id: 's', kind: 'sleep', sleep: { until: '2026-12-05T10:00:00Z' } }]);
    expect(toWorkflowNodeSpec(req.nodes[0]!).wake).toEqual({ at: new Date('2026-12-05T10:00:00Z') });
  });

  it('a wait wakes at its timeout in the wait lane, and its target says what the timeout does', () => {
    const req = request([
      { id: 'w', kind: 'wait', wait: { timeoutS: 600 } },
      { id: 'v', kind: 'wait', wait: { timeoutS: 5, onTimeout: 'succeed' } },
    ]);
    const w = toWorkflowNodeSpec(req.nodes[0]!);
    const v = toWorkflowNodeSpec(req.nodes[1]!);
    expect(w).toMatchObject({ kind: 'wait', lane: WAIT_LANE, wake: { delayMs: 600_000 } });
    expect(v).toMatchObject({ kind: 'wait', lane: WAIT_LANE, wake: { delayMs: 5_000 } });
    expect(waitTimeoutOutcome(w.target)).toBe('fail');
    expect(waitTimeoutOutcome(v.target)).toBe('succeed');
  });
});

describe('nodeKindTarget', () => {
  it('names the kind in a url no executor calls; a wait fails at its timeout unless told otherwise', () => {
    expect(nodeKindTarget('sleep').url).toBe('dsched:sleep');
    expect(nodeKindTarget('wait').url).toBe('dsched:wait?onTimeout=fail');
    expect(nodeKindTarget('wait', 'succeed').url).toBe('dsched:wait?onTimeout=succeed');
    expect(nodeKindTarget('wait')).toMatchObject({ method: 'POST', headers: {}, timeoutMs: 30_000 });
    expect(waitTimeoutOutcome(nodeKindTarget('wait'))).toBe('fail');
  });
});

describe('checkNodeTimes', () => {
  it('accepts a sleep until a time in the next year, and ignores calls, waits and durations', () => {
    const req = request([
      { id: 'a', target },
      { id: 's', kind: 'sleep', sleep: { until: '2026-12-04T09:00:01Z' } },
      { id: 'f', kind: 'sleep', sleep: { for: '10m' } },
      { id: 'w', kind: 'wait', wait: { timeoutS: 60 } },
    ]);
    expect(() => checkNodeTimes(req, NOW)).not.toThrow();
  });

  it('refuses a sleep until now or before, or past a year, naming each node', () => {
    const req = request([
      { id: 'a', target },
      { id: 'now', kind: 'sleep', sleep: { until: '2026-12-04T09:00:00Z' } },
      { id: 'past', kind: 'sleep', sleep: { until: '2026-01-01T00:00:00Z' } },
      { id: 'far', kind: 'sleep', sleep: { until: '2027-12-05T09:00:00Z' } },
      { id: 'year', kind: 'sleep', sleep: { until: '2027-12-04T09:00:00Z' } },
    ]);
    expect(fieldsOf(() => checkNodeTimes(req, NOW))).toEqual([
      'nodes.1.sleep.until',
      'nodes.2.sleep.until',
      'nodes.3.sleep.until',
    ]);
    try {
      checkNodeTimes(req, NOW);
    } catch (err) {
      expect((err as DschedError).code).toBe('invalid_argument');
      expect((err as Error).message).toContain('nodes.1.sleep.until: must be in the future');
      expect((err as Error).message).toContain('nodes.3.sleep.until: at most a year ahead');
    }
  });
});

describe('planWorkflow and withSignalHashes', () => {
  it('plans every node with one job id each, the run id and jobs ordered from the clock', () => {
    const req = request(
      [
        { id: 'a', target },
        { id: 'w', kind: 'wait', wait: { timeoutS: 60 }, dependsOn: ['a'] },
      ],
      { failurePolicy: 'fail_fast', maxParallel: 3, deadlineS: 60, tags: { team: 'billing' } },
    );
    const plan = planWorkflow(req, 'tenant-1', NOW, 0);
    expect(plan).toMatchObject({
      tenantId: 'tenant-1',
      name: 'w',
      failurePolicy: 'fail_fast',
      maxParallel: 3,
      deadlineS: 60,
      metadata: null,
      tags: { team: 'billing' },
      edgeCount: 1,
    });
    expect(plan.nodes.map((n) => n.kind)).toEqual(['call', 'wait']);
    expect(plan.jobIds).toHaveLength(2);
    expect(new Set([plan.id, ...plan.jobIds]).size).toBe(3);
  });

  it('gives each wait node, and only those, the hash of its signal token', () => {
    const key = Buffer.alloc(32, 7);
    const req = request([
      { id: 'a', target },
      { id: 'w', kind: 'wait', wait: { timeoutS: 60 }, dependsOn: ['a'] },
      { id: 's', kind: 'sleep', sleep: { for: '1m' }, dependsOn: ['w'] },
    ]);
    const plan = withSignalHashes(planWorkflow(req, 'tenant-1', NOW, 0), key);
    const token = signalToken(key, { workflowId: plan.id, nodeId: 'w', jobId: plan.jobIds[1]! });
    expect(plan.nodes[1]!.signalHash).toBe(signalTokenHash(token).toString('hex'));
    expect(plan.nodes[0]!.signalHash).toBeUndefined();
    expect(plan.nodes[2]!.signalHash).toBeUndefined();
  });

  it('refuses a graph that does not hold, as a submission and as a task workflow (fields under workflow.)', () => {
    const req = request([{ id: 'a', target, dependsOn: ['missing'] }]);
    expect(fieldsOf(() => planWorkflow(req, 't', NOW, 0)).length).toBeGreaterThan(0);
    const fields = fieldsOf(() => checkTaskWorkflow(req));
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) expect(f.startsWith('workflow.')).toBe(true);
    expect(() => checkTaskWorkflow(request([{ id: 'a', target }]))).not.toThrow();
  });
});
