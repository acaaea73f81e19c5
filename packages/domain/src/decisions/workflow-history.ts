import type { NodeRecord, WorkflowRecord } from '../wire/workflow-views.ts';
import type { NodeState, WorkflowState } from './workflow-nodes.ts';

// A finished run as history holds it (docs/history.md "Workflows"): its summary and its nodes in
// buckets of consecutive node ids. The archiver places the nodes as it pages them in id order;
// readers page them back through the same buckets. Both sides agree through this file.

/** Consecutive nodes (in node id order) per history partition; also the archiver's node page. */
export const ARCHIVE_NODE_BUCKET_SIZE = 100;

/**
 * The largest live run GET /v1/workflows/{id}/graph answers whole (the console draws it: a layered
 * layout on a canvas, docs/console.md). Read from MySQL in one statement each for nodes and edges.
 */
export const GRAPH_MAX_NODES = 5000;
export const GRAPH_MAX_EDGES = 20_000;

/**
 * The largest run whose dependencies the archiver keeps in its summary, so that its graph is still
 * answered from history. Smaller than the live limit: the runs list reads up to 50 summaries a page,
 * and 20,000 dependencies are about 600 KB of JSON each.
 */
export const ARCHIVED_GRAPH_MAX_NODES = 500;
export const ARCHIVED_GRAPH_MAX_EDGES = 5000;

/** Whether a live run is small enough for its graph to be answered whole. */
export function graphFits(run: { nodeCount: number; edgeCount: number }): boolean {
  return run.nodeCount <= GRAPH_MAX_NODES && run.edgeCount <= GRAPH_MAX_EDGES;
}

/** Whether the archiver keeps a run's dependencies in its summary (its graph answered from history). */
export function archivedGraphFits(run: { nodeCount: number; edgeCount: number }): boolean {
  return run.nodeCount <= ARCHIVED_GRAPH_MAX_NODES && run.edgeCount <= ARCHIVED_GRAPH_MAX_EDGES;
}

/** A finished run the archiver may move; `archived`: its copy is complete, only its delete is left. */
export interface ArchivableRun {
  id: string;
  /** The run's partition, the key of its rows (docs/sharding.md). */
  partition: number;
  tenantId: string;
  state: WorkflowState;
  /** The run's updated_at as selected: the version of its copy and the fence of its mark. */
  updatedAt: Date;
  archived: boolean;
}

/** A finished run's summary in history. */
export interface ArchivedWorkflow {
  tenantId: string;
  /** The run's updated_at (ms) when it was copied: the key of this copy's node rows. */
  version: number;
  record: WorkflowRecord;
  /** Its dependencies, for a run small enough to draw (GET /v1/workflows/{id}/graph); else null. */
  edges: [string, string][] | null;
}

/** Where a node's document lives in history: its bucket, and its bucket among nodes of its state. */
export interface NodePlace {
  bucket: number;
  stateBucket: number;
}

/**
 * Places a run's nodes as they come in node id order. Deterministic for a given run: a finished
 * run's node ids and states do not change, so a copy repeated after a crash places every node
 * where the first copy did, and its rows overwrite themselves.
 */
export class NodePlacement {
  #rank = 0;
  readonly #stateRanks = new Map<NodeState, number>();

  place(state: NodeState): NodePlace {
    const stateRank = this.#stateRanks.get(state) ?? 0;
    this.#stateRanks.set(state, stateRank + 1);
    const place = {
      bucket: Math.floor(this.#rank / ARCHIVE_NODE_BUCKET_SIZE),
      stateBucket: Math.floor(stateRank / ARCHIVE_NODE_BUCKET_SIZE),
    };
    this.#rank += 1;
    return place;
  }
}

/** How many buckets hold `count` nodes (of a run, or of one state of it). */
export function nodeBucketCount(count: number): number {
  return Math.ceil(count / ARCHIVE_NODE_BUCKET_SIZE);
}

const date = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);

/** A node record from its history document (JSON.stringify of a NodeRecord). */
export function nodeRecordFromJson(doc: string): NodeRecord {
  const n = JSON.parse(doc) as NodeRecord & { finishedAt: string | null };
  return { ...n, finishedAt: date(n.finishedAt) };
}

/** A run record from its history document (JSON.stringify of a WorkflowRecord). */
export function workflowRecordFromJson(doc: string): WorkflowRecord {
  const w = JSON.parse(doc) as Record<string, unknown> & WorkflowRecord;
  return {
    ...w,
    deadlineAt: date(w.deadlineAt),
    createdAt: date(w.createdAt) as Date,
    updatedAt: date(w.updatedAt) as Date,
    finishedAt: date(w.finishedAt),
    // Runs archived before tags existed have none.
    tags: w.tags ?? null,
  };
}
