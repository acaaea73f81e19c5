import type { WorkflowNode } from '@dsched/client/browser';

// A small workflow's DAG as SVG: nodes in columns by depth (the longest path from a root), in id
// order within a column, coloured by state; dependencies as lines from parent to child.

const COL = 170;
const ROW = 40;
const W = 140;
const H = 26;

export function layout(nodes: { id: string }[], edges: [string, string][]) {
  const parents = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  for (const n of nodes) {
    parents.set(n.id, []);
    children.set(n.id, []);
  }
  for (const [p, c] of edges) {
    parents.get(c)?.push(p);
    children.get(p)?.push(c);
  }
  const depth = new Map<string, number>();
  const waiting = new Map([...parents].map(([id, ps]) => [id, ps.length]));
  const queue = nodes.filter((n) => waiting.get(n.id) === 0).map((n) => n.id);
  for (const id of queue) depth.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const c of children.get(id) ?? []) {
      depth.set(c, Math.max(depth.get(c) ?? 0, depth.get(id)! + 1));
      const left = waiting.get(c)! - 1;
      waiting.set(c, left);
      if (left === 0) queue.push(c);
    }
  }
  const columns: string[][] = [];
  for (const n of nodes) {
    const d = depth.get(n.id) ?? 0;
    const column = columns[d] ?? [];
    column.push(n.id);
    columns[d] = column;
  }
  const at = new Map<string, { x: number; y: number }>();
  columns.forEach((ids, d) => {
    ids.sort().forEach((id, r) => {
      at.set(id, { x: 10 + d * COL, y: 10 + r * ROW });
    });
  });
  const width = 20 + Math.max(1, columns.length) * COL - (COL - W);
  const height = 20 + Math.max(1, ...columns.map((c) => c.length)) * ROW - (ROW - H);
  return { at, width, height };
}

/**
 * A map node's items (`<map>~<index>`) drawn as the map's one box, which says how many there are;
 * the node table below the graph lists them one by one.
 */
export function collapseMapItems(nodes: WorkflowNode[], edges: [string, string][]) {
  const maps = new Set(nodes.filter((n) => n.kind === 'map').map((n) => n.id));
  if (maps.size === 0) return { nodes, edges };
  const isItem = (id: string) => {
    const cut = id.lastIndexOf('~');
    return cut > 0 && maps.has(id.slice(0, cut)) && /^\d+$/.test(id.slice(cut + 1));
  };
  return {
    nodes: nodes.filter((n) => !isItem(n.id)),
    edges: edges.filter(([p, c]) => !isItem(p) && !isItem(c)),
  };
}

function label(n: WorkflowNode): string {
  const id = n.id.length > 18 ? `${n.id.slice(0, 17)}…` : n.id;
  return n.kind === 'map' && n.map?.count !== undefined ? `${id.slice(0, 12)} ×${n.map.count}` : id;
}

export function Dag(props: { nodes: WorkflowNode[]; edges: [string, string][] }) {
  const { nodes, edges } = collapseMapItems(props.nodes, props.edges);
  const { at, width, height } = layout(nodes, edges);
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.state, (counts.get(n.state) ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  return (
    <div class="dag-wrap">
      <svg
        class="dag"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`The workflow's graph: ${nodes.length} nodes (${summary}), ${edges.length} dependencies`}
      >
        <g class="edges">
          {edges.map(([p, c]) => {
            const a = at.get(p);
            const b = at.get(c);
            if (!a || !b) return null;
            return <line key={`${p}>${c}`} x1={a.x + W} y1={a.y + H / 2} x2={b.x} y2={b.y + H / 2} />;
          })}
        </g>
        {nodes.map((n) => {
          const p = at.get(n.id)!;
          const items = n.kind === 'map' && n.map?.count !== undefined ? `, ${n.map.count} items` : '';
          return (
            <g key={n.id} class={`dag-node s-${n.state}`} transform={`translate(${p.x},${p.y})`}>
              <title>{`${n.id}: ${n.state}${items}`}</title>
              <rect width={W} height={H} rx={4} />
              <text x={8} y={17}>
                {label(n)}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
