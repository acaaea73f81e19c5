import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { withRows } from '@dsched/mysql/sql';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { EVEN, itRoutesToOneShard, ODD, productSql, singleModePool } from '@dsched/testkit/vitess-routes';
import { submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';

// A run's submission (workflow-submit.ts) is one transaction on the run's shard: its row, its tag
// index rows, nodes, edges and root jobs, every statement keyed by the run's partition
// (docs/sharding.md, invariant 12). Runs on the Vitess leg only (vitess-*.test.ts). Watched
// failing with the tag rows' read of the run unkeyed again (`WHERE w.id = ?`, and with
// `(w.partition = ? OR 1)`): the route reached both shards, and the submissions in single
// transaction mode failed with "multi-db transaction attempted".
const db = useTestDatabase(import.meta.url);

/** Sessions in single transaction mode, whatever vtgate's default. */
const single = singleModePool(db);

/** workflow-tags-insert.sql as workflow-submit.ts sends it: the tags as literal rows. */
const TAGS = withRows(productSql('workflows/workflow-tags-insert.sql'), ['tag'], [['team:a'], ['env:prod']]);

describe("a run's submission through vtgate", () => {
  itRoutesToOneShard(db, {
    "its tag index rows, copied from the run's row (workflow-tags-insert)": {
      file: 'workflows/workflow-tags-insert.sql',
      text: () => TAGS.sql,
      params: (p) => [...TAGS.params, p[0], idToBin(newId(Date.now(), p[0]!))],
    },
  });

  it('stores tagged runs on both shards in single transaction mode, with their tag index rows', async () => {
    const tenant = await createTenantWithKey(single.pool);
    const runs = [];
    for (const partition of [EVEN[1]!, ODD[1]!]) {
      runs.push(
        await submitWorkflow(single.pool, tenant.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], {
          partition,
          extra: { tags: { team: 'a', env: 'prod' } },
        }),
      );
    }
    for (const wf of runs) {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        'SELECT tag FROM workflow_tags WHERE `partition` = ? AND workflow_id = ? ORDER BY tag',
        [wf.partition, idToBin(wf.id)],
      );
      expect(rows.map((r) => r.tag)).toEqual(['env:prod', 'team:a']);
    }
  });
});
