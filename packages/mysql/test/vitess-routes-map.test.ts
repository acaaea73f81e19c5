import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, itSeesALostKey, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';

// The route of each statement of the node waker through vtgate (docs/sharding.md, invariant 12):
// a pass serves one group of partitions (the executor wakes each group of its shard map in turn,
// node-wake.ts), its due sleep, wait and map jobs read for the group, and every later statement
// keyed by the rows it locked; a map node's step (map-expand.ts) is keyed by the map job's row's
// partition, which its run, nodes, outputs, tags and item jobs share (RunKey). Runs on the Vitess
// leg only (`pnpm test:vitess`). The statements are sent as node-wake.ts and map-expand.ts send
// them, with partitions all on one shard.
const db = useTestDatabase(import.meta.url);

const RUN = Buffer.alloc(16, 7);
const JOB = Buffer.alloc(16, 9);

const KEYED: Record<string, RoutedStatement> = {
  "wake: a lane's due jobs, locked (node-wake-select)": {
    file: 'workflows/node-wake-select.sql',
    params: (partitions) => ['map', partitions, 1],
  },
  'wake: their rows (node-wake-read)': {
    file: 'workflows/node-wake-read.sql',
    params: (partitions) => [partitions, [JOB]],
  },
  'wake: their ends (node-wake-end)': {
    file: 'workflows/node-wake-end.sql',
    params: (partitions) => ['succeeded', null, partitions, [JOB]],
  },
  'map: the map job and its node (map-read)': {
    file: 'workflows/map-read.sql',
    params: (partitions) => [partitions[0], JOB],
  },
  'map: its run, unlocked (map-run-read)': {
    file: 'workflows/map-run-read.sql',
    text: (file) => file.replace('%LOCK%', ''),
    params: (partitions) => [partitions[0], RUN],
  },
  'map: its run, locked for the start (map-run-read)': {
    file: 'workflows/map-run-read.sql',
    text: (file) => file.replace('%LOCK%', 'FOR UPDATE'),
    params: (partitions) => [partitions[0], RUN],
  },
  "map: the parent's output (map-parent-output)": {
    file: 'workflows/map-parent-output.sql',
    params: (partitions) => [partitions[0], RUN, 'p'],
  },
  'map: the expansion starts (map-start)': {
    file: 'workflows/map-start.sql',
    params: (partitions) => [3, partitions[0], RUN, 'm'],
  },
  "map: a slice's item jobs (map-item-jobs-insert)": {
    file: 'workflows/map-item-jobs-insert.sql',
    params: (partitions) => [partitions[0], RUN, 'm~0', 'm~2'],
  },
  'map: their tags (map-item-job-tags)': {
    file: 'workflows/map-item-job-tags.sql',
    params: (partitions) => ['m~0', 'm~2', partitions[0], RUN],
  },
  'map: the cursor moved (map-slice)': {
    file: 'workflows/map-slice.sql',
    params: (partitions) => [3, 3, 3, 1, partitions[0], RUN, 'm', 0],
  },
  "map: the run's counts grow (map-run-grow)": {
    file: 'workflows/map-run-grow.sql',
    params: (partitions) => [3, 3, partitions[0], RUN],
  },
  'map: the job parked (map-park)': {
    file: 'workflows/map-park.sql',
    params: (partitions) => [5000, partitions[0], JOB],
  },
  "map: the items' output size (map-item-output-bytes)": {
    file: 'workflows/map-item-output-bytes.sql',
    params: (partitions) => [partitions[0], RUN, 'm~0', 'm~2'],
  },
  "map: the items' outputs (map-item-outputs)": {
    file: 'workflows/map-item-outputs.sql',
    params: (partitions) => [partitions[0], RUN, 'm~0', 'm~2'],
  },
};

describe("the node waker's and the map step's statements through vtgate", () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(
    db,
    "a map statement that lost its key: without `partition`, the map job's read goes to both shards",
    {
      file: 'workflows/map-read.sql',
      key: ' j.`partition` = ? AND',
      params: [JOB],
    },
  );
});
