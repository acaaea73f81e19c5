// The scheduler's batch: due tasks locked, their occurrences written as jobs, next_fire_at advanced.
export { type MaterialiseArgs, type MaterialiseResult, materialiseDueBatch } from './materialise.ts';
