import { newId } from '@dsched/domain';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  productSql,
  type RoutedStatement,
  routeOf,
  shardsIn,
} from '@dsched/testkit/vitess-routes';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { OUTCOME_ATTEMPT_COLUMNS } from '../src/jobs/outcome/outcomes.ts';
import { clockedSql, withCaseGroups, withNamedCases, withRows } from '../src/sql.ts';

// The route of each statement of the executor's outcome path through vtgate (docs/sharding.md,
// invariant 12): the fenced updates, the attempt rows and the follow-ups of a batch, keyed by the
// batch's partitions, each go to one shard. Runs on the Vitess leg only (`pnpm test:vitess`).
const db = useTestDatabase(import.meta.url);

const NOW = new Date('2026-12-05T09:00:00.000Z');

/** Two job ids in each of the given partitions, as binary keys. */
function idsIn(partitions: number[]): Buffer[] {
  return partitions.flatMap((p) => [idToBin(newId(NOW.getTime(), p)), idToBin(newId(NOW.getTime(), p))]);
}

/** outcome-apply.sql as recordOutcomes sends it: a retry, a park, a give-back and a failure. */
function apply(partitions: number[], unkeyed = false): { sql: string; params: unknown[] } {
  const [retry, parked, given, failed] = idsIn(partitions);
  const ids = [retry!, parked!, given!, failed!];
  const text = clockedSql(productSql('jobs/outcome/outcome-apply.sql'))();
  return withNamedCases(
    unkeyed ? text.replace('`partition` IN (?) AND ', '') : text,
    {
      next: [
        [retry!, 'pending'],
        [parked!, 'running'],
        [given!, 'pending'],
        [failed!, 'failed'],
      ],
      status: [
        [retry!, 500],
        [parked!, 202],
      ],
      error: [[retry!, 'HTTP 500']],
      given_back: [[given!, 1]],
      delay: [[retry!, 1000]],
      deadline: [[parked!, 3600]],
      heartbeat: [[parked!, 60]],
    },
    [...(unkeyed ? [] : [partitions]), ids, ids.map((id) => [id, 1])],
  );
}

/** An outcome-attempts*.sql as recordOutcomes sends it, for the batch's jobs. */
function attempts(file: string, parked: boolean, partitions: number[]): { sql: string; params: unknown[] } {
  const columns = OUTCOME_ATTEMPT_COLUMNS;
  const rows = idsIn(partitions).map((id) => [id, 1, 'executor-1', NOW, 'succeeded', null, null, 5]);
  const made = parked
    ? withRows(
        clockedSql(productSql(file))(),
        [...columns, 'parked'],
        rows.map((r) => [...r, 1]),
      )
    : withRows(clockedSql(productSql(file))(), columns, rows);
  return { sql: made.sql, params: [...made.params, partitions] };
}

/** follow-up-callbacks.sql as the callback follow-up sends it. */
function callbacks(partitions: number[]): { sql: string; params: unknown[] } {
  const rows = idsIn(partitions).map((id, i) => [
    id,
    idToBin(newId(NOW.getTime(), partitions[0]!)),
    `body ${i}`,
  ]);
  const made = withRows(
    productSql('jobs/follow-ups/follow-up-callbacks.sql'),
    ['job_id', 'callback_id', 'response_body'],
    rows,
  );
  return { sql: made.sql, params: [3, 10_000, '{}', ...made.params, partitions] };
}

/** node-outputs-upsert.sql as the node outputs follow-up sends it. */
function nodeOutputs(partitions: number[]): { sql: string; params: unknown[] } {
  const run = idToBin(newId(NOW.getTime(), partitions[0]!));
  const rows = idsIn(partitions).map((id, i) => [run, `n${i}`, 1, '{}', id]);
  const made = withRows(
    productSql('workflows/node-outputs-upsert.sql'),
    ['workflow_id', 'node_id', 'attempt', 'output', 'job_id'],
    rows,
  );
  return { sql: made.sql, params: [...made.params, partitions] };
}

/** A statement built by the product's own helpers: its text and its parameters, for `partitions`. */
function built(
  file: string,
  build: (partitions: number[]) => { sql: string; params: unknown[] },
): RoutedStatement {
  return {
    file,
    text: (_f, partitions) => build(partitions).sql,
    params: (partitions) => build(partitions).params,
  };
}

/** A streak's move as failure-streaks.ts sends it: one task reset, another two dead further. */
function streak(partitions: number[]): { sql: string; params: unknown[] } {
  const [reset, dead] = idsIn(partitions);
  return withCaseGroups(
    productSql('jobs/follow-ups/follow-up-streak.sql'),
    't.id',
    { reset: [[reset, 0]], dead: [[dead, 2]] },
    [partitions, [reset, dead]],
  );
}

/** The statements of an outcome batch, each keyed by the batch's partitions. */
const KEYED: Record<string, RoutedStatement> = {
  'outcome: the locking read of a mismatched batch (outcome-lock)': {
    file: 'jobs/outcome/outcome-lock.sql',
    params: (partitions) => [partitions, idsIn(partitions).map((id) => [id, 1])],
  },
  'outcome: a group of jobs that ended alike (outcome-finish)': {
    file: 'jobs/outcome/outcome-finish.sql',
    text: (f) => clockedSql(f)(),
    params: (partitions) => {
      const ids = idsIn(partitions);
      return ['succeeded', 200, null, partitions, ids, ids.map((id) => [id, 1])];
    },
  },
  'outcome: retries, parks, give-backs and the rest (outcome-apply)': built(
    'jobs/outcome/outcome-apply.sql',
    apply,
  ),
  'outcome: the attempt rows (outcome-attempts)': built('jobs/outcome/outcome-attempts.sql', (p) =>
    attempts('jobs/outcome/outcome-attempts.sql', false, p),
  ),
  'outcome: the attempt rows of a batch with parks (outcome-attempts-parked)': built(
    'jobs/outcome/outcome-attempts-parked.sql',
    (p) => attempts('jobs/outcome/outcome-attempts-parked.sql', true, p),
  ),
  'follow-ups: callback jobs (follow-up-callbacks)': built(
    'jobs/follow-ups/follow-up-callbacks.sql',
    callbacks,
  ),
  "follow-ups: the streaks' moves read (follow-up-streak-select)": {
    file: 'jobs/follow-ups/follow-up-streak-select.sql',
    params: (partitions) => [partitions, idsIn(partitions), partitions, idsIn(partitions)],
  },
  'follow-ups: the streaks moved (follow-up-streak)': built('jobs/follow-ups/follow-up-streak.sql', streak),
  'follow-ups: the pause a streak reached (follow-up-pause)': {
    file: 'jobs/follow-ups/follow-up-pause.sql',
    params: (partitions) => [partitions, idsIn(partitions)],
  },
  "follow-ups: the paused tasks' unstarted jobs (follow-up-supersede)": {
    file: 'jobs/follow-ups/follow-up-supersede.sql',
    params: (partitions) => [partitions, idsIn(partitions)],
  },
  "follow-ups: a node job's output (node-outputs-upsert)": built(
    'workflows/node-outputs-upsert.sql',
    nodeOutputs,
  ),
};

describe('the outcome path through vtgate', () => {
  itRoutesToOneShard(db, KEYED);

  it('the check sees a statement that lost its key: outcome-apply without `partition IN` goes to both shards', async () => {
    const unkeyed = apply([0, 2], true);
    expect(unkeyed.sql).not.toBe(apply([0, 2]).sql);
    const route = await routeOf(db.pool, unkeyed.sql, unkeyed.params);
    expect(shardsIn(route)).toEqual(['-80', '80-']);
  });
});
