// Flow control keys (parallelism, rate) held across the fleet, decided inside the claim
// (docs/flow-control.md).
export { applyFlowControl, createFlowKeys, type FlowOutcome, type FlowRow } from './flow-control.ts';
