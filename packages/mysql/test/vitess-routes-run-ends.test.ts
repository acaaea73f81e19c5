import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, itSeesALostKey, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';

// The route of each statement of a run's end through vtgate (docs/sharding.md, invariant 12):
// finishing runs with nothing left to run, stopping them (cancel, fail_fast, deadline) and
// dispatching their held nodes; and a run's lock for a tenant's operation, its pause, resume and
// reopening. A run's nodes and node jobs share its partition, which each end
// takes from a row of the run (workflow-runs.ts, RunKey), so every statement names it and reaches
// the one shard that holds the runs. Runs on the Vitess leg only (`pnpm test:vitess`). The
// statements are sent as workflow-runs.ts sends them, with runs of partitions all on one shard.
const db = useTestDatabase(import.meta.url);

const RUNS = [Buffer.alloc(16, 7), Buffer.alloc(16, 9)];

const KEYED: Record<string, RoutedStatement> = {
  'run ends: the runs done, locked (walk-runs-done)': {
    file: 'workflows/walk-runs-done.sql',
    params: (partitions) => [partitions, RUNS],
  },
  'run ends: the runs to stop, locked (runs-lock)': {
    file: 'workflows/runs-lock.sql',
    text: (file) => file.replace('%FAIL_FAST%', "AND failure_policy = 'fail_fast'"),
    params: (partitions) => [partitions, RUNS],
  },
  'run ends: finished (workflow-finish)': {
    file: 'workflows/workflow-finish.sql',
    params: (partitions) => ['succeeded', partitions, RUNS],
  },
  "run ends: a workflow task's occurrence jobs (scheduled-runs-select)": {
    file: 'workflows/scheduled-runs-select.sql',
    params: (partitions) => [partitions, RUNS],
  },
  'run ends: the occurrence jobs end with their runs (scheduled-runs-finish)': {
    file: 'workflows/scheduled-runs-finish.sql',
    params: (partitions) => ['dead', 'workflow failed', partitions, RUNS],
  },
  'stop: the nodes not started (runs-cancel-unstarted-nodes)': {
    file: 'workflows/runs-cancel-unstarted-nodes.sql',
    params: (partitions) => [partitions, RUNS],
  },
  'stop: the node jobs not started (runs-cancel-pending-jobs)': {
    file: 'workflows/runs-cancel-pending-jobs.sql',
    params: (partitions) => ['workflow cancelled', partitions, RUNS],
  },
  'stop: the running node jobs asked to abort (runs-request-cancel-running)': {
    file: 'workflows/runs-request-cancel-running.sql',
    params: (partitions) => [partitions, RUNS],
  },
  'stop: the nodes of the jobs cancelled (runs-cancel-nodes-of-cancelled-jobs)': {
    file: 'workflows/runs-cancel-nodes-of-cancelled-jobs.sql',
    params: (partitions) => [partitions, RUNS],
  },
  'dispatch: the runs with places, locked (dispatch-lock)': {
    file: 'workflows/dispatch-lock.sql',
    text: (file) => file.replace('%CAPPED%', 'AND w.max_parallel IS NOT NULL'),
    params: (partitions) => [partitions, RUNS],
  },
  'dispatch: held nodes released (dispatch-release)': {
    file: 'workflows/dispatch-release.sql',
    params: (partitions) => [partitions[0], RUNS[0], 10],
  },
  'dispatch: their jobs (node-jobs-insert-run)': {
    file: 'workflows/node-jobs-insert-run.sql',
    params: (partitions) => [partitions[0], RUNS[0]],
  },
  "dispatch: their jobs' tags (node-job-tags-run)": {
    file: 'workflows/node-job-tags-run.sql',
    params: (partitions) => [partitions[0], RUNS[0]],
  },
  'pause: the run paused (run-set-paused)': {
    file: 'workflows/run-set-paused.sql',
    params: (partitions) => [1, partitions[0], RUNS[0]],
  },
  "pause: the run's node jobs held (node-jobs-hold)": {
    file: 'workflows/node-jobs-hold.sql',
    params: (partitions) => [partitions, RUNS],
  },
  'pause: a retried node job held (node-jobs-hold-retried)': {
    file: 'workflows/node-jobs-hold-retried.sql',
    params: (partitions) => [partitions, RUNS],
  },
  "resume: the run's node jobs released (node-jobs-release)": {
    file: 'workflows/node-jobs-release.sql',
    params: (partitions) => [partitions[0], RUNS[0]],
  },
  "a tenant's operation on a run: its lock (run-lock-tenant)": {
    file: 'workflows/run-lock-tenant.sql',
    params: (partitions) => [partitions[0], RUNS[0], Buffer.alloc(16, 3)],
  },
  'retry: a finished run running again (run-reopen)': {
    file: 'workflows/run-reopen.sql',
    params: (partitions) => [partitions[0], RUNS[0]],
  },
};

describe("a run's end through vtgate", () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(
    db,
    'a run end that lost its key: without `partition IN`, the runs done are read on both shards',
    {
      file: 'workflows/walk-runs-done.sql',
      key: ' w.`partition` IN (?) AND',
      params: [RUNS],
    },
  );
});
