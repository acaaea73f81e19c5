import { type FollowUp, registerFollowUp } from '../jobs/finish/index.ts';
import { keepNodeOutputs } from './node-outputs.ts';
import { releaseRunQuotas } from './run-quota.ts';
import { holdRetriedNodeJobs } from './workflow-hold.ts';
import { dispatchHeld, finishDoneRuns } from './workflow-runs.ts';
import { advanceWorkflows, finishedNodeJobs } from './workflow-walk.ts';

// What a node job's end sets off in its run, as follow-ups of the finish path
// (packages/mysql/src/jobs/finish): the same four whatever path ended the job (the executor's
// outcome, job-api's complete or cancel, the reconciler's give-back or dead-letter), in the
// transaction that ended it. jobs/ knows nothing of workflows; this module registers them there
// when the workflows layer loads (its index imports it).

/** A node's output: its call's response body, or its completion's report. */
export const nodeOutputs: FollowUp = {
  name: 'node outputs',
  phase: 'record',
  run: (conn, ends) => keepNodeOutputs(conn, ends),
};

/** A node job sent back to pending while its run is paused waits for the resume. */
export const heldRetries: FollowUp = {
  name: 'held retries',
  phase: 'record',
  run: (conn, ends) => holdRetriedNodeJobs(conn, ends),
};

/** The walk: finished nodes tell their children, which may run, skip or fail upstream. */
export const walk: FollowUp = {
  name: 'the walk',
  phase: 'tell',
  nodeJobs: true,
  async run(conn, ends, context) {
    const runs = await advanceWorkflows(conn, finishedNodeJobs(ends));
    for (const [key, id] of runs) context.runs.set(key, id);
  },
};

/**
 * Run ends: of the runs the walk touched, those with a maxParallel give the places these ends freed
 * to their held nodes, and those with nothing left to run finish (succeeded or failed); after the
 * commit, those that ended give their place in the quota back.
 */
export const runEnds: FollowUp = {
  name: 'run ends',
  phase: 'settle',
  async run(conn, _ends, context) {
    if (context.runs.size === 0) return;
    const runs = [...context.runs.values()];
    await dispatchHeld(conn, runs, { onlyCapped: true });
    await finishDoneRuns(conn, runs);
  },
  // The places in the quota of the runs that ended, after the commit (run-quota.ts, D61).
  async afterCommit(pool, context) {
    if (context.runs.size > 0) await releaseRunQuotas(pool, [...context.runs.values()]);
  },
};

/** Registers the workflows layer's follow-ups with the finish path (idempotent). */
export function registerWorkflowFollowUps(): void {
  for (const followUp of [nodeOutputs, heldRetries, walk, runEnds]) registerFollowUp(followUp);
}
