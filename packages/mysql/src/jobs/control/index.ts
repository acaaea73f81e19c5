// job-api's writes on a job: cancel, heartbeat and complete (202 jobs), redrive from the DLQ.
export { cancelJob, completeJob, heartbeatJob } from './job-control.ts';
export { REDRIVE_BATCH, type RedriveGroups, redriveJobs, redriveLockedJobs, redriveTask } from './redrive.ts';
