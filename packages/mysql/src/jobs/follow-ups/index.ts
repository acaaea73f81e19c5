// What follows a job's final outcome: callback jobs, failure streaks, pause on failure.
export {
  type FinishedJob,
  type FollowUpColumns,
  followUpFinishedJobs,
  followUpsOfRow,
  NO_FOLLOW_UPS,
} from './follow-ups.ts';
