import type { WorkflowNode } from '@dsched/client/browser';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { BOX, type Edge, type Layout, layout, levelRowsFor } from './graph.ts';
import { href } from './router.ts';
import { Badge } from './ui.tsx';

// A run's DAG on a canvas, so 5,000 nodes and 20,000 dependencies draw in one pass (an SVG of that
// many elements takes seconds to lay out and stalls every scroll). Levels left to right, a wide
// level wrapped into columns (graph.ts). Drag to pan, the wheel or the buttons to zoom, Fit to see
// it whole; labels appear once a box is tall enough to read. A click (or Enter on a focused canvas
// after the arrows) selects a node and shows its state and job below. The critical path is drawn
// in orange. The canvas carries `data-drawn` (nodes given), `data-shown` (nodes on screen),
// `data-view` and `data-draw-ms` (the layout and the last drawing) for the tests.

const FILL: Record<string, string> = {
  succeeded: '#e6f4ea',
  dead: '#fde8e8',
  upstream_failed: '#fde8e8',
  running: '#cfe2f7',
  pending: '#e7f0fa',
};
const STROKE: Record<string, string> = {
  succeeded: '#1a6a32',
  dead: '#a4161a',
  upstream_failed: '#a4161a',
  running: '#0b5cad',
  pending: '#0b5cad',
};
const GREY = '#5b5f66';
const CRITICAL = '#c25400';
/** The canvas's height: a small graph's own (at least 120 px), at most 480 px. */
const MAX_HEIGHT = 480;
const heightFor = (lay: Layout) => Math.min(MAX_HEIGHT, Math.max(120, Math.ceil(lay.height) + 8));

/**
 * A map node's items (`<map>~<index>`) drawn as the map's one box, which says how many there are;
 * the node table below the graph lists them one by one.
 */
export function collapseMapItems(nodes: WorkflowNode[], edges: readonly Edge[]) {
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

interface View {
  x: number;
  y: number;
  scale: number;
}

function fit(lay: Layout, width: number): View {
  const scale = Math.min(1, (width - 8) / lay.width, (heightFor(lay) - 8) / lay.height);
  return { x: 4, y: 4, scale };
}

function draw(
  canvas: HTMLCanvasElement,
  lay: Layout,
  nodes: WorkflowNode[],
  edges: readonly Edge[],
  view: View,
  critical: ReadonlySet<string>,
  selected: string | undefined,
): void {
  const dpr = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = heightFor(lay);
  if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
  if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.translate(view.x, view.y);
  ctx.scale(view.scale, view.scale);
  // What is on screen, in layout units: nodes and edges outside it are skipped.
  const x0 = -view.x / view.scale - BOX.w;
  const y0 = -view.y / view.scale - BOX.h;
  const x1 = (width - view.x) / view.scale;
  const y1 = (height - view.y) / view.scale;
  const shown = (p: { x: number; y: number }) => p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
  const line = (bold: boolean) => {
    ctx.beginPath();
    for (const [p, c] of edges) {
      if (bold !== (critical.has(p) && critical.has(c))) continue;
      const a = lay.at.get(p);
      const b = lay.at.get(c);
      if (!a || !b || (!shown(a) && !shown(b))) continue;
      ctx.moveTo(a.x + BOX.w, a.y + BOX.h / 2);
      ctx.lineTo(b.x, b.y + BOX.h / 2);
    }
    ctx.stroke();
  };
  ctx.lineWidth = Math.max(1, 1 / view.scale) * 0.8;
  ctx.strokeStyle = '#9aa3ad';
  line(false);
  ctx.lineWidth = Math.max(2, 2.5 / view.scale);
  ctx.strokeStyle = CRITICAL;
  line(true);
  const labels = BOX.h * view.scale >= 12;
  ctx.font = '12px ui-monospace, "DejaVu Sans Mono", monospace';
  ctx.textBaseline = 'middle';
  let drawn = 0;
  for (const n of nodes) {
    const p = lay.at.get(n.id);
    if (!p || !shown(p)) continue;
    drawn++;
    ctx.fillStyle = FILL[n.state] ?? '#ffffff';
    ctx.fillRect(p.x, p.y, BOX.w, BOX.h);
    const onPath = critical.has(n.id);
    ctx.lineWidth = n.id === selected ? 5 : onPath ? 3 : Math.max(1.5, 1 / view.scale);
    ctx.strokeStyle = n.id === selected ? '#f5a623' : onPath ? CRITICAL : (STROKE[n.state] ?? GREY);
    ctx.strokeRect(p.x, p.y, BOX.w, BOX.h);
    if (labels) {
      ctx.fillStyle = '#1b1f24';
      ctx.fillText(label(n), p.x + 8, p.y + BOX.h / 2);
    }
  }
  canvas.dataset.shown = String(drawn);
  canvas.dataset.view = `${Math.round(view.x)},${Math.round(view.y)},${view.scale.toFixed(3)}`;
}

export function Dag(props: {
  workflowId: string;
  nodes: WorkflowNode[];
  edges: readonly Edge[];
  critical?: readonly string[] | undefined;
}) {
  const { nodes, edges } = useMemo(
    () => collapseMapItems(props.nodes, props.edges),
    [props.nodes, props.edges],
  );
  // The layout changes only with the run's shape, not with every state change a poll brings.
  const shape = `${props.workflowId}:${nodes.length}:${edges.length}`;
  const layoutMs = useRef(0);
  const lay = useMemo(() => {
    const started = performance.now();
    const placed = layout(
      nodes.map((n) => n.id),
      edges,
      levelRowsFor(nodes.length),
    );
    layoutMs.current = performance.now() - started;
    return placed;
  }, [shape]);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [view, setView] = useState<View | undefined>(undefined);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const critical = useMemo(() => new Set(props.critical ?? []), [props.critical]);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const started = performance.now();
    const v = view ?? fit(lay, c.clientWidth);
    if (!view) setView(v);
    draw(c, lay, nodes, edges, v, critical, selected);
    // The layout's time and this drawing's: the page's own work for the run's shape.
    c.dataset.drawMs = (layoutMs.current + performance.now() - started).toFixed(1);
    c.dataset.drawn = String(nodes.length);
  }, [lay, nodes, edges, view, critical, selected]);

  // The wheel zooms about the pointer; a listener of its own, since Preact's is passive.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      setView((v) => v && zoomAt(v, e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top));
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  }, []);

  const drag = useRef<{ x: number; y: number; moved: boolean } | undefined>(undefined);
  const zoom = (k: number) =>
    setView((v) => v && zoomAt(v, k, (canvas.current?.clientWidth ?? 0) / 2, heightFor(lay) / 2));
  const pan = (dx: number, dy: number) => setView((v) => v && { ...v, x: v.x + dx, y: v.y + dy });
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.state, (counts.get(n.state) ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  const picked = selected ? byId.get(selected) : undefined;
  return (
    <div class="dag-box">
      <div class="dag-tools" role="toolbar" aria-label="The graph's view">
        <button type="button" onClick={() => zoom(1.5)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoom(1 / 1.5)}>
          Zoom out
        </button>
        <button type="button" onClick={() => canvas.current && setView(fit(lay, canvas.current.clientWidth))}>
          Fit
        </button>
        <span class="sub">
          {lay.levels} levels; drag to pan, wheel to zoom
          {props.critical?.length ? '; the critical path in orange' : ''}
        </span>
      </div>
      <canvas
        ref={canvas}
        class="dag"
        style={{ height: `${heightFor(lay)}px` }}
        tabIndex={0}
        role="img"
        aria-label={`The workflow's graph: ${nodes.length} nodes (${summary}), ${edges.length} dependencies, in ${lay.levels} levels`}
        onPointerDown={(e) => {
          drag.current = { x: e.clientX, y: e.clientY, moved: false };
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d) return;
          const dx = e.clientX - d.x;
          const dy = e.clientY - d.y;
          if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
          drag.current = { x: e.clientX, y: e.clientY, moved: true };
          pan(dx, dy);
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = undefined;
          if (d?.moved || !view) return;
          const r = e.currentTarget.getBoundingClientRect();
          setSelected(hit(lay, view, e.clientX - r.left, e.clientY - r.top));
        }}
        onKeyDown={(e) => {
          const step = 60;
          const keys: Record<string, () => void> = {
            ArrowLeft: () => pan(step, 0),
            ArrowRight: () => pan(-step, 0),
            ArrowUp: () => pan(0, step),
            ArrowDown: () => pan(0, -step),
            '+': () => zoom(1.5),
            '=': () => zoom(1.5),
            '-': () => zoom(1 / 1.5),
          };
          const act = keys[e.key];
          if (act) {
            e.preventDefault();
            act();
          }
        }}
      />
      <p class="sub dag-picked" aria-live="polite">
        {picked ? (
          <>
            Node <code>{picked.id}</code> <Badge state={picked.state} />, attempt {picked.attempt}
            {picked.kind === 'map' && picked.map?.count !== undefined ? `, ${picked.map.count} items` : ''}
            {picked.jobId ? (
              <>
                {' '}
                · <a href={href(`/runs/${picked.jobId}`)}>its job</a>
              </>
            ) : null}
          </>
        ) : (
          'Click a node to see it.'
        )}
      </p>
    </div>
  );
}

function zoomAt(v: View, k: number, px: number, py: number): View {
  const scale = Math.min(4, Math.max(0.02, v.scale * k));
  const f = scale / v.scale;
  return { scale, x: px - (px - v.x) * f, y: py - (py - v.y) * f };
}

/** The node under a point of the canvas, if any. */
function hit(lay: Layout, v: View, px: number, py: number): string | undefined {
  const x = (px - v.x) / v.scale;
  const y = (py - v.y) / v.scale;
  for (const [id, p] of lay.at) {
    if (x >= p.x && x <= p.x + BOX.w && y >= p.y && y <= p.y + BOX.h) return id;
  }
  return undefined;
}
