// The executor's outcome batch: each claimed job's result, fenced by its attempt.
export { recordOutcome, recordOutcomes } from './outcomes.ts';
