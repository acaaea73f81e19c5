// What every subsystem of jobs/ shares: the one insert of new job rows (materialise, trigger-now,
// backfill, callbacks, workflow nodes) and the read of whole job records (views, archive).
// The subsystems are folders beside this file, each with its own index.
export { insertJobs, type NewJob } from './insert-jobs.ts';
export { getLiveJob, loadJobRecords } from './job-records.ts';
