import { loadSql } from '@dsched/mysql/sql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';

// The route of each hot statement through vtgate (docs/sharding.md, invariant 12): one shard,
// never scatter. Runs on the Vitess leg only (`pnpm test:vitess`: vitest.config.ts lists it there
// and nowhere else), against vttestserver's two shards of `dsched`. Each statement is run as the
// product sends it, with its partitions all on one shard, under `VEXPLAIN QUERIES` inside a
// transaction that is rolled back: vtgate answers with every query it sent, and to which shard.
//
// With `reverse_bits` on the partition (deploy/vitess), a partition's low bit picks its shard of
// two: even partitions live on `-80`, odd ones on `80-`.
const db = useTestDatabase(import.meta.url);

const EVEN = [0, 2, 4, 62];
const ODD = [1, 3, 63];

const sql = (file: string) => loadSql(import.meta.url, `../src/${file}`);

interface Statement {
  /** The .sql file under packages/mysql/src, as the product loads it. */
  file: string;
  /** Its parameters, for partitions all on one shard. */
  params: (partitions: number[]) => unknown[];
  /** The text sent, when the product rewrites the file's (markers); the file's text by default. */
  text?: (file: string) => string;
}

const NOW = new Date('2026-12-05T09:00:00.000Z');

/**
 * The hot statements keyed by the partition on main. A statement h32key's stage 2 keys joins this
 * list in the commit that keys it; docs/sharding.md lists those not keyed yet.
 */
const KEYED: Record<string, Statement> = {
  'materialise: the due set (select-due-tasks)': {
    file: 'scheduler/select-due-tasks.sql',
    params: (partitions) => [partitions, NOW, NOW, 1001],
  },
};

/** Every (keyspace, shard) vtgate sent a statement to, as VEXPLAIN QUERIES reports it. */
async function routeOf(statement: string, params: unknown[]): Promise<{ keyspace: string; shard: string }[]> {
  const conn = await db.pool.getConnection();
  try {
    await conn.query('BEGIN');
    try {
      const [rows] = await conn.query<RowDataPacket[]>(
        `VEXPLAIN QUERIES ${mysql.format(statement, params as Parameters<typeof mysql.format>[1])}`,
      );
      return rows.map((r) => ({ keyspace: String(r.keyspace), shard: String(r.shard) }));
    } finally {
      await conn.query('ROLLBACK');
    }
  } finally {
    conn.release();
  }
}

function shardsIn(route: { keyspace: string; shard: string }[], keyspace: string): string[] {
  return [...new Set(route.filter((r) => r.keyspace === keyspace).map((r) => r.shard))].sort();
}

describe('hot statements through vtgate', () => {
  for (const [name, s] of Object.entries(KEYED)) {
    it(`${name} goes to one shard of dsched, the one its partitions live on`, async () => {
      const text = (s.text ?? ((f: string) => f))(sql(s.file));
      expect(shardsIn(await routeOf(text, s.params(EVEN)), 'dsched')).toEqual(['-80']);
      expect(shardsIn(await routeOf(text, s.params(ODD)), 'dsched')).toEqual(['80-']);
    });
  }

  it('the check sees a statement that lost its key: without `partition IN`, the due set goes to both shards', async () => {
    const keyed = sql('scheduler/select-due-tasks.sql');
    const unkeyed = keyed.replace(' AND `partition` IN (?)', '');
    expect(unkeyed).not.toBe(keyed);
    const route = await routeOf(unkeyed, [NOW, NOW, 1001]);
    expect(shardsIn(route, 'dsched')).toEqual(['-80', '80-']);
  });
});
