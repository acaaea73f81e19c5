// Flow control keys (parallelism, rate) held across the fleet: decided in the claim's transaction
// on the global keyspace, with a hold per admitted job (docs/flow-control.md, docs/sharding.md).
export {
  applyFlowControl,
  createFlowKeys,
  deferFlowControlled,
  type FlowHold,
  type FlowOutcome,
  type FlowRow,
  holdFlowKeys,
  releaseFlowHolds,
  renewFlowHolds,
} from './flow-control.ts';
