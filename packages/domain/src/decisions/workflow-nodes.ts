import type { TriggerRule } from '../model.ts';

// A workflow node's states and the trigger-rule decision: what a node becomes once all its
// parents have finished. Pure; the walk in MySQL (packages/mysql/src/workflows) applies the same
// decisions in SQL (walk-decide.sql, walk-runs-done.sql, stopRuns), and a property test runs random
// DAGs through both and asserts the same node and run states
// (packages/mysql/test/walk-agrees.property.test.ts).

/** Node states as the API shows them (docs/api.md). */
export const NODE_STATES = [
  'waiting',
  'pending',
  'running',
  'succeeded',
  'dead',
  'skipped',
  'upstream_failed',
  'cancelled',
] as const;
export type NodeState = (typeof NODE_STATES)[number];

/**
 * Node states as stored. `ready`: every parent has finished and the node may run, but dispatch is
 * held (the run is paused or at its maxParallel), so it has no job yet; shown as `pending`.
 * `pending` (stored): the node's job exists and is not finished; shown as `pending` or `running`
 * after its job.
 */
export const STORED_NODE_STATES = [
  'waiting',
  'ready',
  'pending',
  'succeeded',
  'dead',
  'skipped',
  'upstream_failed',
  'cancelled',
] as const;
export type StoredNodeState = (typeof STORED_NODE_STATES)[number];

/** States a node does not leave without an operator's retry. */
export const FINISHED_NODE_STATES = ['succeeded', 'dead', 'skipped', 'upstream_failed', 'cancelled'] as const;
export type FinishedNodeState = (typeof FINISHED_NODE_STATES)[number];

/**
 * How a finished parent counts for its children. `failed`: it did not do its work and something
 * went wrong (dead, upstream_failed, or cancelled); `skipped`: it was not meant to run.
 */
export type ParentOutcome = 'succeeded' | 'failed' | 'skipped';

export function parentOutcome(s: FinishedNodeState): ParentOutcome {
  if (s === 'succeeded') return 'succeeded';
  if (s === 'skipped') return 'skipped';
  return 'failed';
}

/** What a node's parents did, as its row counts them. */
export interface ParentCounts {
  /** Parents not finished yet. */
  unfinished: number;
  /** Finished parents that count as failed. */
  failed: number;
  /** Finished parents that were skipped. */
  skipped: number;
}

/**
 * What a waiting node becomes: `waiting` while a parent is unfinished (the decision is taken once,
 * when the last parent finishes, so it never depends on the order parents finish in), then
 * - all_success: runs when every parent succeeded; `upstream_failed` if one failed, else
 *   `skipped` if one was skipped;
 * - all_done: runs whatever its parents did (cleanup);
 * - one_failed: runs when at least one parent failed (a failure handler); `skipped` otherwise.
 * A node without parents runs at once.
 */
export function triggerDecision(
  rule: TriggerRule,
  c: ParentCounts,
): 'waiting' | 'run' | 'skipped' | 'upstream_failed' {
  if (c.unfinished > 0) return 'waiting';
  switch (rule) {
    case 'all_success':
      if (c.failed > 0) return 'upstream_failed';
      return c.skipped > 0 ? 'skipped' : 'run';
    case 'all_done':
      return 'run';
    case 'one_failed':
      return c.failed > 0 ? 'run' : 'skipped';
  }
}

/** The stored transitions a node may take; every SQL state change of a node is one of these. */
const NODE_TRANSITIONS: Record<StoredNodeState, readonly StoredNodeState[]> = {
  waiting: ['ready', 'pending', 'skipped', 'upstream_failed', 'cancelled'],
  ready: ['pending', 'cancelled'],
  pending: ['succeeded', 'dead', 'cancelled'],
  succeeded: [],
  // An operator's retry resets a node that did not succeed (and its descendants) to waiting or pending.
  dead: ['waiting', 'pending'],
  skipped: ['waiting', 'pending'],
  upstream_failed: ['waiting', 'pending'],
  cancelled: ['waiting', 'pending'],
};

export function canNodeTransition(from: StoredNodeState, to: StoredNodeState): boolean {
  return NODE_TRANSITIONS[from].includes(to);
}

/** The state the API shows for a stored node state and, for a node with a live job, its job's state. */
export function nodeStateView(stored: StoredNodeState, jobState: string | null): NodeState {
  if (stored === 'ready') return 'pending';
  if (stored === 'pending') return jobState === 'running' ? 'running' : 'pending';
  return stored;
}

export const WORKFLOW_STATES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

/**
 * A run's final state once no node is left to run: `failed` when a node is dead or
 * upstream_failed (a failure handler that ran does not make the failure go away), `succeeded`
 * otherwise (skipped nodes were not meant to run). A cancelled run stays cancelled.
 */
export function finalWorkflowState(counts: Partial<Record<StoredNodeState, number>>): WorkflowState {
  if ((counts.dead ?? 0) > 0 || (counts.upstream_failed ?? 0) > 0) return 'failed';
  if ((counts.cancelled ?? 0) > 0) return 'failed';
  return 'succeeded';
}
