// What follows a job's end besides itself: callback jobs, failure streaks, tenant slots (each a
// follow-up the finish path runs, ../finish), and the columns of a row that say which apply.
export { callbackJobs } from './callbacks.ts';
export { failureStreaks } from './failure-streaks.ts';
export { type FollowUpColumns, followUpsOfRow } from './follow-ups.ts';
export { releaseTenantSlots, tenantSlots } from './tenant-slots.ts';
