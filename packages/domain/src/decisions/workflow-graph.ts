import { DschedError, type FieldIssue } from '../errors.ts';

// The graph checks of a workflow submission, in O(V + E) time and memory, without recursion (a
// 100,000-deep chain must not overflow the stack): unique ids, known parents, no self-edge, no
// parent listed twice, at most MAX_WORKFLOW_NODES nodes and MAX_WORKFLOW_EDGES edges, and acyclic
// (Kahn's algorithm; on a cycle the error names the nodes of one cycle).

/** The most nodes, and parent links, one workflow may have (docs/workflows.md). */
export const MAX_WORKFLOW_NODES = 100_000;
export const MAX_WORKFLOW_EDGES = 1_000_000;

export interface GraphNode {
  id: string;
  dependsOn: readonly string[];
}

/** What the store needs of a valid graph: the edges, and which nodes have no parent. */
export interface CheckedGraph {
  edgeCount: number;
  /** Indexes (into the submitted nodes) of the nodes without parents: they run first. */
  roots: number[];
}

function invalid(details: FieldIssue[]): DschedError {
  return new DschedError('invalid_argument', details.map((d) => `${d.field}: ${d.issue}`).join('; '), {
    details,
  });
}

/** Throws invalid_argument naming the offending node (and field) when the graph is not a DAG. */
export function checkWorkflowGraph(nodes: readonly GraphNode[]): CheckedGraph {
  const n = nodes.length;
  if (n > MAX_WORKFLOW_NODES) {
    throw invalid([{ field: 'nodes', issue: `at most ${MAX_WORKFLOW_NODES} nodes (got ${n})` }]);
  }
  const index = new Map<string, number>();
  let edgeCount = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    const seen = index.get(node.id);
    if (seen !== undefined) {
      throw invalid([
        { field: `nodes.${i}.id`, issue: `duplicate node id "${node.id}" (also nodes.${seen})` },
      ]);
    }
    index.set(node.id, i);
    edgeCount += node.dependsOn.length;
  }
  if (edgeCount > MAX_WORKFLOW_EDGES) {
    throw invalid([
      { field: 'nodes', issue: `at most ${MAX_WORKFLOW_EDGES} dependencies (got ${edgeCount})` },
    ]);
  }

  // Children lists in compressed form: the children of parent p are child[start[p] .. start[p+1]).
  const indegree = new Int32Array(n);
  const start = new Int32Array(n + 1);
  const parentOf = new Int32Array(edgeCount);
  let e = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    for (let k = 0; k < node.dependsOn.length; k++) {
      const parent = node.dependsOn[k]!;
      const p = index.get(parent);
      const field = `nodes.${i}.dependsOn.${k}`;
      if (p === undefined)
        throw invalid([{ field, issue: `node "${node.id}" depends on unknown node "${parent}"` }]);
      if (p === i) throw invalid([{ field, issue: `node "${node.id}" depends on itself` }]);
      parentOf[e++] = p;
      start[p + 1]!++;
      indegree[i]!++;
    }
  }
  // A parent listed twice would count twice. A scan of each list would be O(d²) for a wide fan-in,
  // so each parent remembers the last child that listed it.
  const lastChild = new Int32Array(n).fill(-1);
  e = 0;
  for (let i = 0; i < n; i++) {
    const deps = nodes[i]!.dependsOn;
    for (let k = 0; k < deps.length; k++) {
      const p = parentOf[e++]!;
      if (lastChild[p] === i) {
        throw invalid([
          { field: `nodes.${i}.dependsOn.${k}`, issue: `node "${nodes[i]!.id}" lists "${deps[k]}" twice` },
        ]);
      }
      lastChild[p] = i;
    }
  }
  for (let p = 0; p < n; p++) start[p + 1]! += start[p]!;
  const fill = start.slice(0, n);
  const child = new Int32Array(edgeCount);
  e = 0;
  for (let i = 0; i < n; i++) {
    const d = nodes[i]!.dependsOn.length;
    for (let k = 0; k < d; k++) child[fill[parentOf[e++]!]!++] = i;
  }

  // Kahn: take nodes with no unfinished parent, in a queue held in a typed array.
  const roots: number[] = [];
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const remaining = indegree.slice();
  for (let i = 0; i < n; i++) {
    if (remaining[i] === 0) {
      roots.push(i);
      queue[tail++] = i;
    }
  }
  while (head < tail) {
    const p = queue[head++]!;
    for (let c = start[p]!; c < start[p + 1]!; c++) {
      const ch = child[c]!;
      if (--remaining[ch]! === 0) queue[tail++] = ch;
    }
  }
  if (tail < n) throw cycleError(nodes, index, remaining);
  return { edgeCount, roots };
}

/**
 * Every node Kahn did not take has a parent Kahn did not take, so following such parents from any
 * of them must come back to a node already on the path: that stretch is a cycle. Iterative, O(V + E).
 */
function cycleError(
  nodes: readonly GraphNode[],
  index: Map<string, number>,
  remaining: Int32Array,
): DschedError {
  const onPathAt = new Int32Array(nodes.length).fill(-1);
  const path: number[] = [];
  let at = remaining.findIndex((r) => r > 0);
  while (onPathAt[at] === -1) {
    onPathAt[at] = path.length;
    path.push(at);
    const deps = nodes[at]!.dependsOn;
    let next = -1;
    for (let k = 0; k < deps.length; k++) {
      const p = index.get(deps[k]!)!;
      if (remaining[p]! > 0) {
        next = p;
        break;
      }
    }
    at = next;
  }
  // path[onPathAt[at]..] follows parents: reversed, it reads in dependency order.
  const cycle = path.slice(onPathAt[at]!).reverse();
  const named = cycle.slice(0, MAX_CYCLE_NAMED);
  const ids = named.map((i) => nodes[i]!.id);
  const issue =
    cycle.length <= MAX_CYCLE_NAMED
      ? `dependency cycle: ${[...ids, ids[0]].join(' -> ')}`
      : `dependency cycle of ${cycle.length} nodes: ${ids.join(' -> ')} -> ...`;
  const details = named.map((i) => ({ field: `nodes.${i}.dependsOn`, issue }));
  return new DschedError('invalid_argument', `${details[0]!.field}: ${issue}`, { details });
}

/** A cycle's error names its nodes up to this many (a whole 100,000-node cycle would be megabytes). */
const MAX_CYCLE_NAMED = 100;
