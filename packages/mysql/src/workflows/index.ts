// Workflows: submission, reads, operations (cancel, pause, retry a node), the walk that tells a
// finished node's children, the reconciler's sweep and the archiver's side.
export { attachNodeInputs, type NodeInputsOptions } from './node-inputs.ts';
export { keepNodeOutput, keepNodeOutputs } from './node-outputs.ts';
export {
  archiveEdgePage,
  archiveNodePage,
  deleteArchivedWorkflowBatch,
  markWorkflowArchived,
  selectArchivableWorkflows,
} from './workflow-archive.ts';
export {
  cancelWorkflow,
  type RetryResult,
  type RunOperationResult,
  retryWorkflowNode,
  setWorkflowPaused,
} from './workflow-control.ts';
export { holdRetriedNodeJobs } from './workflow-hold.ts';
export {
  getWorkflow,
  isWorkflowLive,
  listWorkflowEdges,
  listWorkflowNodeParents,
  listWorkflowNodes,
} from './workflow-reads.ts';
export { stopRuns } from './workflow-runs.ts';
export { insertWorkflow, type NewWorkflow } from './workflow-submit.ts';
export { countRunningWorkflows, countWalkQueue, type SweepResult, sweepWorkflows } from './workflow-sweep.ts';
export { advanceWorkflows, type FinishedNodeJob, finishedNodeJobs } from './workflow-walk.ts';
