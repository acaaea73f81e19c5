import { describe, expect, it } from 'vitest';
import {
  checkTaskWorkflow,
  createWorkflowSchema,
  DschedError,
  MAP_INDEX_HEADER,
  MAP_LANE,
  MAX_MAP_NODE_ID_LENGTH,
  mapItemId,
  mapItemsFailed,
  mapItemTarget,
  mapNodeIssues,
  mapOutput,
  mapOutputFits,
  planWorkflow,
  readMapItems,
} from '../src/index.ts';

// Map nodes' pure decisions (workflow-map.ts) and their request checks: the storage side is tested
// in packages/mysql/test/workflow-map.test.ts.

const target = { url: 'https://example.test/item', method: 'POST' };
const request = (nodes: unknown[]) => createWorkflowSchema.parse({ name: 'w', nodes });
const mapNode = (map: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'm',
  kind: 'map',
  dependsOn: ['p'],
  map: { over: 'p', target, ...map },
  ...extra,
});

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof DschedError) return err.details.map((d) => d.field);
    throw err;
  }
  return [];
}

describe('map node requests', () => {
  it('plan a map node: its target is each item’s, its job in the map lane, maxItems 10,000 unless said', () => {
    const plan = planWorkflow(request([{ id: 'p', target }, mapNode({})]), 't', 0, 0);
    const m = plan.nodes[1]!;
    expect(m).toMatchObject({
      kind: 'map',
      lane: MAP_LANE,
      map: { over: 'p', maxItems: 10_000 },
      wake: null,
    });
    expect(m.target.url).toBe('https://example.test/item');
    expect(m.inputs).toBe('none');
  });

  it('refuse a map over a node that is not its parent, naming map.over', () => {
    const req = request([{ id: 'p', target }, { id: 'q', target }, mapNode({ over: 'q' })]);
    expect(fieldsOf(() => planWorkflow(req, 't', 0, 0))).toEqual(['nodes.2.map.over']);
    expect(fieldsOf(() => checkTaskWorkflow(req))).toEqual(['workflow.nodes.2.map.over']);
  });

  it('refuse maxItems that take the run past 100,000 nodes, and out of range', () => {
    const ok = request([{ id: 'p', target }, mapNode({ maxItems: 99_998 })]);
    expect(fieldsOf(() => planWorkflow(ok, 't', 0, 0))).toEqual([]);
    const over = request([{ id: 'p', target }, mapNode({ maxItems: 99_999 })]);
    expect(fieldsOf(() => planWorkflow(over, 't', 0, 0))).toEqual(['nodes.1.map.maxItems']);
    for (const maxItems of [0, 100_001, 1.5]) {
      const parsed = createWorkflowSchema.safeParse({
        name: 'w',
        nodes: [{ id: 'p', target }, mapNode({ maxItems })],
      });
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.path.join('.')).toBe('nodes.1.map.maxItems');
    }
  });

  it('require map on a map node and refuse it on others; refuse a target on a map node', () => {
    const noMap = createWorkflowSchema.safeParse({ name: 'w', nodes: [{ id: 'm', kind: 'map', target }] });
    expect(noMap.error!.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'nodes.0.map',
      'nodes.0.target',
    ]);
    const onCall = createWorkflowSchema.safeParse({
      name: 'w',
      nodes: [{ id: 'c', target, map: { over: 'p', target } }],
    });
    expect(onCall.error!.issues.map((i) => i.path.join('.'))).toEqual(['nodes.0.map']);
  });

  it('refuse ids that leave no room for the items, or look like an item of a map', () => {
    const long = 'm'.repeat(MAX_MAP_NODE_ID_LENGTH + 1);
    expect(
      mapNodeIssues([{ id: long, kind: 'map', dependsOn: ['p'], map: { over: 'p', maxItems: 1 } }]),
    ).toEqual([
      { field: 'nodes.0.id', issue: `a map node's id is at most ${MAX_MAP_NODE_ID_LENGTH} characters` },
    ]);
    const fits = 'm'.repeat(MAX_MAP_NODE_ID_LENGTH);
    expect(
      mapNodeIssues([{ id: fits, kind: 'map', dependsOn: ['p'], map: { over: 'p', maxItems: 1 } }]),
    ).toEqual([]);
    const clash = mapNodeIssues([
      { id: 'p', kind: 'call', dependsOn: [] },
      { id: 'm', kind: 'map', dependsOn: ['p'], map: { over: 'p', maxItems: 5 } },
      { id: 'm~1', kind: 'call', dependsOn: [] },
      { id: 'mx', kind: 'call', dependsOn: [] },
    ]);
    expect(clash.map((i) => i.field)).toEqual(['nodes.2.id']);
    expect(clash[0]!.issue).toBe('ids starting "m~" are the items of map node "m"');
  });
});

describe('map items', () => {
  it('are named by index, zero-padded to the last index, so ids sort in index order', () => {
    expect(mapItemId('m', 0, 1)).toBe('m~0');
    expect(mapItemId('m', 7, 10)).toBe('m~7');
    expect(mapItemId('m', 7, 11)).toBe('m~07');
    expect(mapItemId('m', 42, 10_000)).toBe('m~0042');
    expect(mapItemId('m', 9_999, 10_000)).toBe('m~9999');
    const ids = Array.from({ length: 120 }, (_, i) => mapItemId('m', i, 120));
    expect([...ids].sort()).toEqual(ids);
  });

  it('are called with the item as the body and the index in a header, the map’s headers kept', () => {
    const t = {
      url: 'https://x.test/',
      method: 'PUT' as const,
      headers: { a: 'b' },
      body: 'ignored',
      timeoutMs: 5,
    };
    expect(mapItemTarget(t, { n: 1 }, 3)).toEqual({
      url: 'https://x.test/',
      method: 'PUT',
      headers: { a: 'b', [MAP_INDEX_HEADER]: '3' },
      body: { n: 1 },
      timeoutMs: 5,
    });
    expect(t.headers).toEqual({ a: 'b' });
  });

  it('come from a JSON array; anything else fails the node saying what it was', () => {
    expect(readMapItems('[1,"a",{"b":2}]', 'p', 3)).toEqual({ items: [1, 'a', { b: 2 }] });
    expect(readMapItems('[]', 'p', 3)).toEqual({ items: [] });
    expect(readMapItems('[1,2,3,4]', 'p', 3)).toEqual({
      error: 'map over "p": its output has 4 items, over maxItems 3',
    });
    expect(readMapItems('{"a":1}', 'p', 3)).toEqual({
      error: 'map over "p": its output is an object, not a JSON array',
    });
    expect(readMapItems('"text"', 'p', 3)).toEqual({
      error: 'map over "p": its output is a string, not a JSON array',
    });
    expect(readMapItems('null', 'p', 3)).toEqual({
      error: 'map over "p": its output is null, not a JSON array',
    });
    expect(readMapItems('12', 'p', 3)).toEqual({
      error: 'map over "p": its output is a number, not a JSON array',
    });
    expect(readMapItems('[1,', 'p', 3)).toEqual({
      error: 'map over "p": its output is not JSON (expected a JSON array)',
    });
    expect(readMapItems(null, 'p', 3)).toEqual({
      error: 'map over "p": it left no output (expected a JSON array)',
    });
  });

  it('give the map node their outputs in order, or a reference when they do not fit', () => {
    expect(mapOutput(['1', null, '{"a":2}'], 3, 'u')).toBe('[1,null,{"a":2}]');
    expect(JSON.parse(mapOutput(null, 3, 'http://t/v1/workflows/w/nodes/m/parents'))).toEqual({
      itemsUrl: 'http://t/v1/workflows/w/nodes/m/parents',
      count: 3,
    });
    expect(mapOutputFits(10, 2, 22)).toBe(true);
    expect(mapOutputFits(10, 2, 21)).toBe(false);
    expect(mapItemsFailed(2, 10)).toBe('2 of 10 items did not succeed');
  });
});
