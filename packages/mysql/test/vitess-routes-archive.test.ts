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
  'archive: the archivable runs (archivable-workflows-select)': {
    file: 'workflows/archivable-workflows-select.sql',
    params: (p) => [p, 10, 60, p, 10, 60, p, 10],
  },
  ...Object.fromEntries(
    (
      [
        ['a run marked archived (archive-mark)', 'archive-mark', (r) => [r.p, r.id, 'succeeded', new Date()]],
        [
          'its live node jobs (archive-live-node-jobs)',
          'archive-live-node-jobs',
          (r) => [r.p, r.id, 'a', 'z'],
        ],
        [
          'a page of its edges (archive-edges-page)',
          'archive-edges-page',
          (r) => [r.p, r.id, 'a', 'z', 'a', 'a', '', 10],
        ],
        [
          'its outputs deleted (archive-delete-outputs)',
          'archive-delete-outputs',
          (r) => [r.p, r.id, r.p, r.id, 10],
        ],
        [
          'its edges deleted (archive-delete-edges)',
          'archive-delete-edges',
          (r) => [r.p, r.id, r.p, r.id, 10],
        ],
        [
          'its nodes deleted (archive-delete-nodes)',
          'archive-delete-nodes',
          (r) => [r.p, r.id, r.p, r.id, 10],
        ],
        ['its tags deleted (archive-delete-tags)', 'archive-delete-tags', (r) => [r.p, r.id, r.p, r.id, 10]],
        ['the run deleted (archive-delete-run)', 'archive-delete-run', (r) => [r.p, r.id, r.p, r.id]],
      ] as [string, string, (run: { p: number; id: Buffer }) => unknown[]][]
    ).map(([name, file, params]) => [
      `archive: ${name}`,
      {
        file: `workflows/${file}.sql`,
        // One run: its partition is the first of the shard's.
        params: (p: number[]) => params({ p: p[0]!, id: idToBin(newId(Date.now(), p[0]!)) }),
      },
    ]),
  ),
};

describe('the archiver through vtgate', () => {
  itRoutesToOneShard(db, ARCHIVE);
});
