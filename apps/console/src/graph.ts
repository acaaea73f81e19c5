// A run's shape and times as the DAG and the timeline draw them: pure functions of the graph
// (GET /v1/workflows/{id}/graph) and of the nodes' jobs, so they are tested without a browser.

export type Edge = readonly [parent: string, child: string];

/** The box of a node in the layout's units (CSS pixels at zoom 1). */
export const BOX = { w: 140, h: 26, col: 170, row: 34 } as const;
/** A level with more nodes than this wraps into several columns, so a wide fan-out stays compact. */
export const LEVEL_ROWS = 40;

/**
 * The rows per column for a run of `count` nodes: 40, or more for a large run, so that the whole
 * drawing is about as wide as it is tall in screen terms (5,000 nodes: 100 rows a column).
 */
export function levelRowsFor(count: number): number {
  return Math.min(200, Math.max(LEVEL_ROWS, Math.ceil(Math.sqrt(count * 2))));
}

export interface Layout {
  /** Each node's top-left corner. */
  at: Map<string, { x: number; y: number }>;
  /** Each node's level: the longest path from a root. */
  depth: Map<string, number>;
  levels: number;
  width: number;
  height: number;
}

function adjacency(ids: readonly string[], edges: readonly Edge[]) {
  const children = new Map<string, string[]>();
  const parents = new Map<string, string[]>();
  for (const id of ids) {
    children.set(id, []);
    parents.set(id, []);
  }
  for (const [p, c] of edges) {
    if (!children.has(p) || !parents.has(c)) continue;
    children.get(p)!.push(c);
    parents.get(c)!.push(p);
  }
  return { children, parents };
}

/**
 * Levels by the longest path from a root (Kahn's order, O(V+E), no recursion), nodes in id order
 * within a level, and a level of more than `rows` nodes in several columns of `rows`.
 */
export function layout(ids: readonly string[], edges: readonly Edge[], rows = LEVEL_ROWS): Layout {
  const { children, parents } = adjacency(ids, edges);
  const depth = new Map<string, number>();
  const waiting = new Map<string, number>();
  const queue: string[] = [];
  for (const id of ids) {
    const n = parents.get(id)!.length;
    waiting.set(id, n);
    if (n === 0) {
      depth.set(id, 0);
      queue.push(id);
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    const d = depth.get(id)! + 1;
    for (const c of children.get(id)!) {
      if (d > (depth.get(c) ?? 0)) depth.set(c, d);
      const left = waiting.get(c)! - 1;
      waiting.set(c, left);
      if (left === 0) queue.push(c);
    }
  }
  const byLevel: string[][] = [];
  for (const id of ids) {
    const d = depth.get(id) ?? 0;
    depth.set(id, d);
    const level = byLevel[d] ?? [];
    level.push(id);
    byLevel[d] = level;
  }
  const at = new Map<string, { x: number; y: number }>();
  let column = 0;
  let tallest = 1;
  for (const level of byLevel) {
    if (!level) continue;
    level.sort();
    level.forEach((id, i) => {
      at.set(id, {
        x: 10 + (column + Math.floor(i / rows)) * BOX.col,
        y: 10 + (i % rows) * BOX.row,
      });
    });
    tallest = Math.max(tallest, Math.min(level.length, rows));
    column += Math.ceil(level.length / rows);
  }
  return {
    at,
    depth,
    levels: byLevel.length,
    width: 20 + Math.max(1, column) * BOX.col - (BOX.col - BOX.w),
    height: 20 + tallest * BOX.row - (BOX.row - BOX.h),
  };
}

/**
 * The critical path: from the node that ended last, back through the parent that ended last (the
 * one its start waited for), to a root. `end` is a node's end (a running node's: now); nodes with
 * none are not on it. Returned root first.
 */
export function criticalPath(
  ids: readonly string[],
  edges: readonly Edge[],
  end: (id: string) => number | undefined,
): string[] {
  const { parents } = adjacency(ids, edges);
  let last: string | undefined;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const id of ids) {
    const e = end(id);
    if (e !== undefined && e > lastEnd) {
      last = id;
      lastEnd = e;
    }
  }
  const path: string[] = [];
  const seen = new Set<string>();
  for (let at = last; at !== undefined && !seen.has(at); ) {
    seen.add(at);
    path.push(at);
    let next: string | undefined;
    let nextEnd = Number.NEGATIVE_INFINITY;
    for (const p of parents.get(at) ?? []) {
      const e = end(p);
      if (e !== undefined && e > nextEnd) {
        next = p;
        nextEnd = e;
      }
    }
    at = next;
  }
  return path.reverse();
}

/** One attempt of a node's job, as the timeline draws it. */
export interface AttemptSpan {
  attempt: number;
  start: number;
  /** Undefined while it runs. */
  end: number | undefined;
  ok: boolean;
}

/** When a node became ready (its job was made), its attempts, and when it ended. */
export interface NodeTimes {
  ready: number;
  attempts: AttemptSpan[];
  end: number | undefined;
}

/** A node's times from its job (GET /v1/jobs/{id}): a node job is scheduled for when it was made. */
export function nodeTimes(job: {
  scheduledFor: string;
  finishedAt?: string | undefined;
  attempts: {
    attempt: number;
    startedAt: string;
    finishedAt?: string | undefined;
    status?: number | undefined;
  }[];
}): NodeTimes {
  const attempts = [...job.attempts]
    .sort((a, b) => a.attempt - b.attempt)
    .map((a) => ({
      attempt: a.attempt,
      start: Date.parse(a.startedAt),
      end: a.finishedAt ? Date.parse(a.finishedAt) : undefined,
      ok: a.status !== undefined && a.status >= 200 && a.status < 300,
    }));
  return {
    ready: Date.parse(job.scheduledFor),
    attempts,
    end: job.finishedAt ? Date.parse(job.finishedAt) : undefined,
  };
}

/** A span of [t0, t1] as left and width percentages of the axis [from, to], clipped to it. */
export function spanPercent(
  t0: number,
  t1: number,
  from: number,
  to: number,
): { left: number; width: number } {
  const total = Math.max(1, to - from);
  const a = Math.min(Math.max(t0, from), to);
  const b = Math.min(Math.max(t1, a), to);
  return { left: ((a - from) / total) * 100, width: ((b - a) / total) * 100 };
}

/** A duration for people: 850 ms, 12.3 s, 4 m 05 s, 2 h 10 m. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} m`;
}
