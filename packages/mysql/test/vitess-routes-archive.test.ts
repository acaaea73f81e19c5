import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';
import { SELECT_ATTEMPTS_KEYED, SELECT_JOBS_KEYED } from '../src/jobs/job-records.ts';

// The archiver's statements through vtgate (docs/sharding.md): each keyed by the archiver's group
// of partitions reaches the one shard the group lives on. Vitess leg only.
const db = useTestDatabase(import.meta.url);

const ids = (partitions: number[]) => partitions.map((p) => idToBin(newId(Date.now(), p)));

const ARCHIVE: Record<string, RoutedStatement> = {
  'archive: the archivable jobs (archivable-select)': {
    file: 'jobs/archive/archivable-select.sql',
    params: (p) => [p, 10, p, 10, 60, p, 10],
  },
  'archive: their rows (select-jobs, keyed)': {
    file: 'jobs/select-jobs.sql',
    text: () => SELECT_JOBS_KEYED,
    params: (p) => [ids(p), p],
  },
  'archive: their attempts (select-attempts, keyed)': {
    file: 'jobs/select-attempts.sql',
    text: () => SELECT_ATTEMPTS_KEYED,
    params: (p) => [ids(p), p],
  },
  'archive: the delete after the history write (archive-delete)': {
    file: 'jobs/archive/archive-delete.sql',
    params: (p) => {
      const bins = ids(p);
      return [p, bins, bins.map((b) => [b, 1])];
    },
  },
};

describe('the archiver through vtgate', () => {
  itRoutesToOneShard(db, ARCHIVE);
});
