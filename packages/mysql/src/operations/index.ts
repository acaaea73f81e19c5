// Bulk operations (docs/bulk-operations.md): task-api starts, reads, lists and cancels them
// (operation-store.ts); the reconciler carries them out in batches (operation-batches.ts).
export {
  type BatchResult,
  releaseOperation,
  runOperationBatch,
  takeOperation,
} from './operation-batches.ts';
export { cancelOperation, getOperation, listOperations, startOperation } from './operation-store.ts';
export { MATCH_COUNT_CAP } from './operation-walks.ts';
