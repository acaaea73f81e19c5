// What follows a job's end besides itself: callback jobs, failure streaks (each a follow-up the
// finish path runs, ../finish), and the columns of a row that say which apply; and the tenant slots
// its attempt held, freed by the outcome after its commit (on the global keyspace).
export { callbackJobs } from './callbacks.ts';
export { failureStreaks } from './failure-streaks.ts';
export { type FollowUpColumns, followUpsOfRow } from './follow-ups.ts';
export { releaseTenantSlots } from './tenant-slots.ts';
