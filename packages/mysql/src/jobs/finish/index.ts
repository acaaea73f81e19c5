// The one way to end a job (docs/design.md invariant 11): every path that ends an attempt calls
// finishJobs in its transaction, which runs the registered follow-ups.
export { afterCommit, finishJobs, followUps, registerFollowUp } from './finish-jobs.ts';
export {
  type FinishContext,
  FOLLOW_UP_PHASES,
  type FollowUp,
  type FollowUpPhase,
  finalOutcomes,
  type JobEnd,
  partitionsOfEnds,
} from './job-end.ts';
