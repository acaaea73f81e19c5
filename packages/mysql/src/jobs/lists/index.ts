// Live jobs as job-api lists them (a task's runs, a tenant's jobs), merged with history by the caller.
export { liveJobIds, liveTaskRuns, liveTenantJobs, type Slice, taskBelongsTo } from './job-lists.ts';
