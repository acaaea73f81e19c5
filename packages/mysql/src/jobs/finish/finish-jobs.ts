import type { Pool, PoolConnection } from 'mysql2/promise';
import { callbackJobs } from '../follow-ups/callbacks.ts';
import { failureStreaks } from '../follow-ups/failure-streaks.ts';
import { type FinishContext, FOLLOW_UP_PHASES, type FollowUp, type JobEnd } from './job-end.ts';

// One way to end a job (docs/design.md invariant 11). Whatever ended an attempt of a job (the
// executor's outcome batch, job-api's complete and cancel, the reconciler's give-back and
// dead-lettering, and what comes next: a signal, a sleep's end) applies its own fenced update and
// then calls finishJobs with what it ended, in the same transaction. finishJobs runs every
// follow-up registered here on those ends, in phases, so a follow-up never depends on which path
// ended the job.
//
// The follow-ups of jobs themselves (callback jobs, failure streaks) are listed
// below; the layers above register theirs (packages/mysql/src/workflows registers node outputs,
// the hold of a paused run's retried node, the walk and run ends): this folder imports nothing of
// theirs.

const registered: FollowUp[] = [callbackJobs, failureStreaks];

/** Adds a follow-up of a layer above jobs/ (once: a second registration of the name is ignored). */
export function registerFollowUp(followUp: FollowUp): void {
  if (registered.some((f) => f.name === followUp.name)) return;
  registered.push(followUp);
}

/** The registered follow-ups in the order they run. */
export function followUps(): readonly FollowUp[] {
  return FOLLOW_UP_PHASES.flatMap((phase) => registered.filter((f) => f.phase === phase));
}

/**
 * Runs every follow-up on the ends one path applied, in the caller's transaction (which holds the
 * ended job rows). Returns what they made (callback jobs, paused tasks) and the ends in a sampled
 * trace, whose spans the path makes once its transaction committed (a span of an end that rolled
 * back would show what never happened).
 */
export async function finishJobs(conn: PoolConnection, ends: readonly JobEnd[]): Promise<FinishContext> {
  const context: FinishContext = { callbackJobs: 0, pausedTasks: 0, runs: new Map(), traced: [] };
  if (ends.length === 0) return context;
  for (const e of ends) {
    if (e.trace?.sampled) {
      context.traced.push({
        id: e.id,
        attempt: e.attempt,
        state: e.state,
        lane: e.lane ?? '',
        trace: e.trace,
      });
    }
  }
  const ordered = followUps();
  if (ends.some((e) => e.workflowNode) && !ordered.some((f) => f.nodeJobs)) {
    throw new Error(
      'finishJobs: a workflow node job ended, but no follow-up for node jobs is registered ' +
        '(load @dsched/mysql/workflows, which registers the walk)',
    );
  }
  for (const followUp of ordered) await followUp.run(conn, ends, context);
  return context;
}

/**
 * The follow-ups' parts after the path's commit (`afterCommit`), each on its own; one that fails is
 * left to the reconciler's pass (the committed ends stand).
 */
export async function afterCommit(pool: Pool, context: FinishContext): Promise<void> {
  for (const followUp of followUps()) {
    if (!followUp.afterCommit) continue;
    try {
      await followUp.afterCommit(pool, context);
    } catch {
      // Left for the reconciler's pass.
    }
  }
}
