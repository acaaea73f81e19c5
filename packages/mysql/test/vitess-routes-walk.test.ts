import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  itSeesALostKey,
  productSql,
  type RoutedStatement,
} from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';
import { withCaseColumns, withCaseGroups } from '../src/sql.ts';
import { stepToken } from '../src/workflows/workflow-runs.ts';

// The route of each statement of the workflow walk through vtgate (docs/sharding.md, invariant 12):
// a run and all its nodes, edges and node jobs share the run's partition, and every statement of
// the walk (and of a node's retry) names it, so each reaches the one shard that holds the runs it
// touches. Runs on the Vitess leg only (`pnpm test:vitess`). The statements are sent as the walk
// sends them (workflow-walk.ts, workflow-control.ts), with runs of partitions all on one shard.
const db = useTestDatabase(import.meta.url);

const RUN = Buffer.alloc(16, 7);
const OTHER = Buffer.alloc(16, 9);
const JOB = Buffer.alloc(16, 3);
const TOKEN_JOB = Buffer.alloc(16, 4);
// A step token as the walk makes it: a decimal string for the BIGINT UNSIGNED column. (A 16-byte
// binary here was what vtgate's tablet refused in retry-reset, "Truncated incorrect BINARY value":
// MySQL's strict mode on the conversion, not a route.)
const TOKEN = stepToken();
const nodes = () => [
  [RUN, 'a'],
  [OTHER, 'b'],
];
/** The parents' placeholders of walk-count-select and the node job inserts. */
const told = (partitions: number[]) => ['', null, null, partitions, nodes()];
const finishNodes = (partitions: number[]) =>
  withCaseColumns(
    productSql('workflows/walk-finish-nodes.sql'),
    [[JOB, 'succeeded', 1]],
    [TOKEN, partitions, nodes(), [JOB]],
  );

/** walk-count.sql as the walk sends it: two children, counted off by one and by two failed. */
const count = (partitions: number[]) =>
  withCaseGroups(
    productSql('workflows/walk-count.sql'),
    'c.job_id',
    {
      n: [
        [JOB, 1],
        [TOKEN_JOB, 2],
      ],
      failed: [[TOKEN_JOB, 2]],
      skipped: [],
    },
    [TOKEN, partitions, nodes()],
  );
/** retry-reset.sql as a retry sends it: the node and one descendant. */
const reset = (partitions: number[]) =>
  withCaseColumns(
    productSql('workflows/retry-reset.sql'),
    [
      ['a', 0, 0, 0, 0],
      ['b', 1, 0, 0, 1],
    ],
    [partitions[0], RUN, ['a', 'b'], TOKEN],
  );

/** The walk's statements and a retry's, keyed by the runs' partitions. */
const KEYED: Record<string, RoutedStatement> = {
  'walk: finish the nodes (walk-finish-nodes)': {
    file: 'workflows/walk-finish-nodes.sql',
    text: (_, partitions) => finishNodes(partitions).sql,
    params: (partitions) => finishNodes(partitions).params,
  },
  'walk: the nodes finished (walk-finished-check)': {
    file: 'workflows/walk-finished-check.sql',
    params: (partitions) => [partitions, nodes(), TOKEN],
  },
  "walk: the children's counts read (walk-count-select)": {
    file: 'workflows/walk-count-select.sql',
    params: (partitions) => told(partitions),
  },
  'walk: the children count their parents off (walk-count)': {
    file: 'workflows/walk-count.sql',
    text: (_, partitions) => count(partitions).sql,
    params: (partitions) => count(partitions).params,
  },
  'walk: the children decided (walk-decide)': {
    file: 'workflows/walk-decide.sql',
    params: (partitions) => [partitions, nodes(), TOKEN],
  },
  'walk: the children that run get jobs (walk-node-jobs-insert)': {
    file: 'workflows/walk-node-jobs-insert.sql',
    text: (file) => `${file}\n${productSql('workflows/node-jobs-revive.sql')}`,
    params: (partitions) => [...told(partitions), partitions, TOKEN],
  },
  'walk: their jobs tagged (walk-node-job-tags)': {
    file: 'workflows/walk-node-job-tags.sql',
    params: (partitions) => [...told(partitions), TOKEN],
  },
  'walk: onto the queue (walk-defer)': {
    file: 'workflows/walk-defer.sql',
    params: (partitions) => [partitions, nodes()],
  },
  'walk: the queue (walk-pending-select)': {
    file: 'workflows/walk-pending-select.sql',
    params: (partitions) => [partitions, 100],
  },
  'walk: off the queue (walk-pending-clear)': {
    file: 'workflows/walk-pending-clear.sql',
    params: (partitions) => [partitions, nodes()],
  },
  "walk: a slice's end (walk-slice-end)": {
    file: 'workflows/walk-slice-end.sql',
    params: (partitions) => [partitions[0], RUN, 'a', '', 99],
  },
  "walk: a slice's cursor (walk-slice-mark)": {
    file: 'workflows/walk-slice-mark.sql',
    params: (partitions) => ['m', 'm', partitions[0], RUN, 'a', null],
  },
  'retry: the node (retry-node-lock)': {
    file: 'workflows/retry-node-lock.sql',
    params: (partitions) => [partitions[0], RUN, 'a'],
  },
  'retry: its descendants (retry-descendants)': {
    file: 'workflows/retry-descendants.sql',
    params: (partitions) => [partitions[0], RUN, ['a'], TOKEN, 100],
  },
  'retry: marked (retry-mark)': {
    file: 'workflows/retry-mark.sql',
    params: (partitions) => [TOKEN, partitions[0], RUN, ['a']],
  },
  'retry: their parents recounted (retry-recount)': {
    file: 'workflows/retry-recount.sql',
    params: (partitions) => [TOKEN, partitions[0], RUN, ['a']],
  },
  'retry: the nodes reset (retry-reset)': {
    file: 'workflows/retry-reset.sql',
    text: (_, partitions) => reset(partitions).sql,
    params: (partitions) => reset(partitions).params,
  },
};

describe('the walk through vtgate', () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(
    db,
    'a walk statement that lost its key: without `partition IN`, the walk queue is read on both shards',
    {
      file: 'workflows/walk-pending-select.sql',
      key: ' AND `partition` IN (?)',
      params: [100],
    },
  );
});
