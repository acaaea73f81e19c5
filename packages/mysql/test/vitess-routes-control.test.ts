import { newId } from '@dsched/domain';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, itSeesALostKey, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';
import { idToBin } from '../src/ids.ts';

// The route of each statement of job-api's writes on a job through vtgate (docs/sharding.md,
// invariant 12): the lock, the heartbeat, the completion (final or a retry), the cancel (at once or
// requested) and the attempt a completion closes, each keyed by the job's partition (the one its
// id names, or its row's for a job stored before the key: job-control.ts), go to one shard. Runs on
// the Vitess leg only (`pnpm test:vitess`).
const db = useTestDatabase(import.meta.url);

const NOW = new Date('2026-12-05T09:00:00.000Z').getTime();

/** A job id in the first of `partitions` (one job: these statements name one partition), binary. */
function jobIn(partitions: number[]): Buffer {
  return idToBin(newId(NOW, partitions[0]!));
}

/** A statement whose parameters are `before`, then the job's partition, id and attempt. */
function onJob(file: string, before: unknown[] = [], after: unknown[] = [1]): RoutedStatement {
  return { file, params: (partitions) => [...before, partitions[0], jobIn(partitions), ...after] };
}

const KEYED: Record<string, RoutedStatement> = {
  'job-api: the lock of one job (control-lock)': onJob('jobs/control/control-lock.sql', [], []),
  "job-api: an asynchronous job's heartbeat (control-heartbeat)": onJob(
    'jobs/control/control-heartbeat.sql',
    [60, null],
  ),
  "job-api: an asynchronous job's completion (control-complete)": onJob('jobs/control/control-complete.sql', [
    '{}',
    null,
    'succeeded',
  ]),
  "job-api: an asynchronous job's failure with attempts left (control-retry)": onJob(
    'jobs/control/control-retry.sql',
    ['{}', 'failed', 1000],
  ),
  'job-api: the attempt a completion or cancel closes (control-attempt-close)': onJob(
    'jobs/control/control-attempt-close.sql',
    ['cancelled', 'cancelled'],
  ),
  'job-api: the cancel of a job being called (control-cancel-request)': onJob(
    'jobs/control/control-cancel-request.sql',
  ),
  'job-api: the cancel of a pending or parked job (control-cancel-now)': onJob(
    'jobs/control/control-cancel-now.sql',
    [],
    [1, 'pending'],
  ),
};

describe("job-api's control statements through vtgate", () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(
    db,
    'a statement that lost its key: control-lock without `partition =` goes to both shards',
    {
      file: 'jobs/control/control-lock.sql',
      key: '`partition` = ? AND ',
      params: [jobIn([0])],
    },
  );
});
