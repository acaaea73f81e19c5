// Workflows: submission, reads, operations (cancel, pause, retry a node), the walk that tells a
// finished node's children, the reconciler's sweep and the archiver's side. Loading this layer
// registers its follow-ups with the finish path (finish-follow-ups.ts): every service that ends
// jobs loads it, and finishJobs refuses a node job's end without them.
import { registerWorkflowFollowUps } from './finish-follow-ups.ts';

registerWorkflowFollowUps();

export { heldRetries, nodeOutputs, registerWorkflowFollowUps, runEnds, walk } from './finish-follow-ups.ts';
export { type MapOptions, type MapStep, stepDueMap } from './map-expand.ts';
export { attachNodeInputs, type NodeInputsOptions } from './node-inputs.ts';
export { type SignalRequest, type SignalResult, signalWaitNode } from './node-signal.ts';
export { WAIT_TIMED_OUT, type WakeReport, waitingNodeEnd, wakeDueNodes } from './node-wake.ts';
export { cancelJobOrItsRun } from './occurrence-cancel.ts';
export { releaseMarkedRunQuotas, releaseRunQuotas, releaseRunQuotasOf } from './run-quota.ts';
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
export { listLiveWorkflows, rowToWorkflowSummary, type WorkflowListQuery } from './workflow-list.ts';
export {
  getWorkflow,
  getWorkflowNode,
  isWorkflowLive,
  listWorkflowEdges,
  listWorkflowNodeParents,
  listWorkflowNodes,
} from './workflow-reads.ts';
export { insertWorkflow, type NewWorkflow } from './workflow-submit.ts';
export { countRunningWorkflows, countWalkQueue, type SweepResult, sweepWorkflows } from './workflow-sweep.ts';
