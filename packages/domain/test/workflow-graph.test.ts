import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkWorkflowGraph,
  createWorkflowSchema,
  DschedError,
  type GraphNode,
  MAX_WORKFLOW_EDGES,
  MAX_WORKFLOW_NODES,
} from '../src/index.ts';

function issues(nodes: GraphNode[]): { field: string; issue: string }[] {
  try {
    checkWorkflowGraph(nodes);
  } catch (err) {
    expect(err).toBeInstanceOf(DschedError);
    expect((err as DschedError).code).toBe('invalid_argument');
    return (err as DschedError).details;
  }
  throw new Error('expected the graph to be refused');
}

const chain = (n: number): GraphNode[] =>
  Array.from({ length: n }, (_, i) => ({ id: `n${i}`, dependsOn: i === 0 ? [] : [`n${i - 1}`] }));

describe('checkWorkflowGraph', () => {
  it('accepts a DAG with fan-out and fan-in and names its roots', () => {
    const g = checkWorkflowGraph([
      { id: 'a', dependsOn: [] },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: ['a'] },
      { id: 'd', dependsOn: ['b', 'c'] },
      { id: 'e', dependsOn: [] },
    ]);
    expect(g).toEqual({ edgeCount: 4, roots: [0, 4] });
  });

  it('refuses duplicate ids, unknown parents, self-edges and a parent listed twice, naming the node', () => {
    expect(
      issues([
        { id: 'a', dependsOn: [] },
        { id: 'a', dependsOn: [] },
      ])[0]!.field,
    ).toBe('nodes.1.id');
    expect(issues([{ id: 'a', dependsOn: ['zz'] }])[0]).toEqual({
      field: 'nodes.0.dependsOn.0',
      issue: 'node "a" depends on unknown node "zz"',
    });
    expect(issues([{ id: 'a', dependsOn: ['a'] }])[0]!.issue).toContain('depends on itself');
    const twice = issues([
      { id: 'a', dependsOn: [] },
      { id: 'b', dependsOn: ['a', 'a'] },
    ]);
    expect(twice[0]!.field).toBe('nodes.1.dependsOn.1');
  });

  it('names exactly the nodes of one cycle, in dependency order', () => {
    const d = issues([
      { id: 'root', dependsOn: [] },
      { id: 'x', dependsOn: ['root', 'z'] },
      { id: 'y', dependsOn: ['x'] },
      { id: 'z', dependsOn: ['y'] },
      { id: 'after', dependsOn: ['z'] },
    ]);
    expect(d.map((i) => i.field).sort()).toEqual([
      'nodes.1.dependsOn',
      'nodes.2.dependsOn',
      'nodes.3.dependsOn',
    ]);
    expect(d[0]!.issue).toMatch(/^dependency cycle: (x -> y -> z -> x|y -> z -> x -> y|z -> x -> y -> z)$/);
  });

  it('refuses more than the node and edge caps', () => {
    const many = Array.from({ length: MAX_WORKFLOW_NODES + 1 }, (_, i) => ({ id: `n${i}`, dependsOn: [] }));
    expect(issues(many)[0]!.field).toBe('nodes');
    // 1,001 children of 1,000 parents each: 1,001,000 edges over few nodes.
    const parents = Array.from({ length: 1000 }, (_, i) => `p${i}`);
    const wide: GraphNode[] = [
      ...parents.map((id) => ({ id, dependsOn: [] })),
      ...Array.from({ length: Math.ceil(MAX_WORKFLOW_EDGES / 1000) + 1 }, (_, i) => ({
        id: `c${i}`,
        dependsOn: parents,
      })),
    ];
    expect(issues(wide)[0]!.issue).toContain(`at most ${MAX_WORKFLOW_EDGES} dependencies`);
  });

  it('walks a 100,000-deep chain, and finds a cycle through all of it, without overflowing the stack', () => {
    const nodes = chain(MAX_WORKFLOW_NODES);
    expect(checkWorkflowGraph(nodes).roots).toEqual([0]);
    nodes[0] = { id: 'n0', dependsOn: [`n${MAX_WORKFLOW_NODES - 1}`] };
    const d = issues(nodes);
    expect(d).toHaveLength(100);
    expect(d[0]!.issue).toContain(`dependency cycle of ${MAX_WORKFLOW_NODES} nodes`);
  });

  it('property: accepts every DAG (edges only to earlier nodes), with the right roots and edge count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(), { maxLength: 5 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat()),
        (parentPicks, shuffleSeed) => {
          const nodes: GraphNode[] = parentPicks.map((picks, i) => ({
            id: `n${i}`,
            dependsOn: i === 0 ? [] : [...new Set(picks.map((p) => p % i))].map((p) => `n${p}`),
          }));
          // Submission order must not matter: shuffle.
          const order = nodes.map((_, i) => i);
          shuffleSeed.forEach((s, k) => {
            const a = k % order.length;
            const b = s % order.length;
            [order[a], order[b]] = [order[b]!, order[a]!];
          });
          const shuffled = order.map((i) => nodes[i]!);
          const g = checkWorkflowGraph(shuffled);
          expect(g.edgeCount).toBe(nodes.reduce((s, n) => s + n.dependsOn.length, 0));
          expect(g.roots.map((i) => shuffled[i]!.id).sort()).toEqual(
            nodes
              .filter((n) => n.dependsOn.length === 0)
              .map((n) => n.id)
              .sort(),
          );
        },
      ),
    );
  });

  it('property: a back edge closing a path is refused with a cycle that is really one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.nat(), fc.nat(), (n, x, y) => {
        const nodes = chain(n);
        const from = x % n;
        const to = from + (y % (n - from));
        // n{to} is downstream of n{from}: making n{from} depend on it closes a cycle.
        nodes[from] = { id: `n${from}`, dependsOn: [...nodes[from]!.dependsOn, `n${to}`] };
        const d = issues(nodes);
        if (from === to) {
          expect(d[0]!.issue).toContain('depends on itself');
          return;
        }
        const ids = d[0]!.issue.replace('dependency cycle: ', '').split(' -> ');
        expect(ids[0]).toBe(ids[ids.length - 1]);
        // Each consecutive pair is a real edge (parent -> child).
        const byId = new Map(nodes.map((m) => [m.id, m]));
        for (let k = 0; k + 1 < ids.length; k++) expect(byId.get(ids[k + 1]!)!.dependsOn).toContain(ids[k]);
      }),
    );
  });
});

describe('createWorkflowSchema', () => {
  it('fills defaults and refuses a bad node id by its field', () => {
    const ok = createWorkflowSchema.parse({
      name: 'w',
      nodes: [{ id: 'a', target: { url: 'http://x.test/' } }],
    });
    expect(ok.failurePolicy).toBe('continue');
    expect(ok.nodes[0]).toMatchObject({ dependsOn: [], trigger: 'all_success', priority: 'normal' });
    const bad = createWorkflowSchema.safeParse({
      name: 'w',
      nodes: [{ id: 'a/b', target: { url: 'http://x/' } }],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['nodes', 0, 'id']);
    const typo = createWorkflowSchema.safeParse({
      name: 'w',
      nodes: [{ id: 'a', target: { url: 'http://x.test/' }, depends_on: ['b'] }],
    });
    expect(typo.error!.issues[0]!.path).toEqual(['nodes', 0]);
    expect(typo.error!.issues[0]!.message).toContain('depends_on');
  });
});
