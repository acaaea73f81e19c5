import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The domain package's modules import each other without a cycle, type-only imports included: a
// cycle makes the load order decide what a module sees (the old model → workflow-spec → task-spec
// → model loop needed a registration hook at load time), and it hides which module is the lower
// layer.

const SRC = fileURLToPath(new URL('../../packages/domain/src/', import.meta.url));

/** Module → the modules of the same package it imports (relative specifiers only). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    const targets = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
      normalize(join(dirname(file), m[1]!)),
    );
    graph.set(normalize(file), targets);
  }
  return graph;
}

/** Each cycle of the graph once, as the path that closes it (`a.ts → b.ts → a.ts`). */
function cyclesOf(graph: Map<string, string[]>): string[] {
  // Tarjan's strongly connected components, iterative; a component of two or more modules (or a
  // module importing itself) holds a cycle, reported by a walk inside the component.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        if (component.length > 1 || edges.includes(top.node)) components.push(component);
      }
    }
  }
  return components.map((component) => {
    const inside = new Set(component);
    const first = [...component].sort()[0]!;
    const path = [first];
    const seen = new Set(path);
    let at = first;
    for (;;) {
      const to = (graph.get(at) ?? []).filter((t) => inside.has(t)).sort()[0]!;
      path.push(to);
      if (seen.has(to)) break;
      seen.add(to);
      at = to;
    }
    return path.slice(path.indexOf(path[path.length - 1]!)).join(' → ');
  });
}

describe('the domain package', () => {
  it('has no import cycle', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(30);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('would be told of one', () => {
    const graph = new Map([
      ['model.ts', ['calendar/interval.ts', 'wire/workflow-spec.ts']],
      ['calendar/interval.ts', []],
      ['wire/workflow-spec.ts', ['wire/call-spec.ts', 'model.ts']],
      ['wire/call-spec.ts', ['model.ts']],
      ['ids.ts', ['ids.ts']],
    ]);
    expect(cyclesOf(graph).sort()).toEqual([
      'ids.ts → ids.ts',
      'model.ts → wire/workflow-spec.ts → model.ts',
    ]);
  });
});
