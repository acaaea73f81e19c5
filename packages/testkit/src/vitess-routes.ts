import { createPool, type Pool } from '@dsched/mysql/pool';
import { loadSql } from '@dsched/mysql/sql';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The route of a hot statement through vtgate (docs/sharding.md, invariant 12): one shard, never
// scatter. For the route tests of the Vitess leg (`packages/*/test/vitess-*.test.ts`, run by
// `pnpm test:vitess` only), against vttestserver's two shards of `dsched`: each statement is run
// as the product sends it, with its partitions all on one shard, under `VEXPLAIN QUERIES` inside a
// transaction that is rolled back, and vtgate answers with every query it sent, and to which shard.
//
// With `reverse_bits` on the partition (deploy/vitess), a partition's low bit picks its shard of
// two: even partitions live on `-80`, odd ones on `80-`.

/** Partitions all on shard `-80` of two. */
export const EVEN = [0, 2, 4, 62];
/** Partitions all on shard `80-` of two. */
export const ODD = [1, 3, 63];

/** A hot statement as the product sends it. */
export interface RoutedStatement {
  /** The .sql file under packages/mysql/src, as the product loads it. */
  file: string;
  /** Its parameters, for `partitions` (all on one shard). */
  params: (partitions: number[]) => unknown[];
  /** The text sent, when the product rewrites the file's (markers, `withRows`...); the file's text by default. */
  text?: (file: string, partitions: number[]) => string;
}

/** A .sql file of packages/mysql/src, as the product loads it. */
export function productSql(file: string): string {
  return loadSql(import.meta.url, `../../mysql/src/${file}`);
}

/**
 * Every (keyspace, shard) vtgate sent `statement` to, as VEXPLAIN QUERIES reports it. A statement
 * that writes is run for real (vtgate explains DML only so), in a transaction rolled back after.
 */
export async function routeOf(
  pool: Pool,
  statement: string,
  params: unknown[],
): Promise<{ keyspace: string; shard: string }[]> {
  const conn = await pool.getConnection();
  try {
    // In multi mode, so that a statement that lost its key is seen reaching both shards: vtgate in
    // single mode (scripts/vitess) would refuse it in the transaction before explaining it. The
    // connection is closed after, not handed back in that mode.
    await conn.query("SET transaction_mode = 'multi'");
    await conn.query('BEGIN');
    try {
      const [rows] = await conn.query<RowDataPacket[]>(
        // vtgate explains a single-route INSERT, UPDATE or DELETE only when told it may run it
        // (VT09008): it runs here inside a transaction that is rolled back.
        `VEXPLAIN /*vt+ EXECUTE_DML_QUERIES */ QUERIES ${mysql.format(statement, params as Parameters<typeof mysql.format>[1])}`,
      );
      return rows.map((r) => ({ keyspace: String(r.keyspace), shard: String(r.shard) }));
    } finally {
      await conn.query('ROLLBACK');
    }
  } finally {
    conn.destroy();
  }
}

/** The shards of `keyspace` in a route, sorted. */
export function shardsIn(route: { keyspace: string; shard: string }[], keyspace = 'dsched'): string[] {
  return [...new Set(route.filter((r) => r.keyspace === keyspace).map((r) => r.shard))].sort();
}

/**
 * One test per statement: with EVEN partitions it reaches exactly `-80` of `dsched`, with ODD ones
 * exactly `80-`. Call inside a describe, with the test file's database.
 */
export function itRoutesToOneShard(db: { pool: Pool }, statements: Record<string, RoutedStatement>): void {
  for (const [name, s] of Object.entries(statements)) {
    it(`${name} goes to one shard of dsched, the one its partitions live on`, async () => {
      const sent = (partitions: number[]) => (s.text ?? ((f: string) => f))(productSql(s.file), partitions);
      expect(shardsIn(await routeOf(db.pool, sent(EVEN), s.params(EVEN)))).toEqual(['-80']);
      expect(shardsIn(await routeOf(db.pool, sent(ODD), s.params(ODD)))).toEqual(['80-']);
    });
  }
}

/**
 * The check's own test, beside a file's itRoutesToOneShard: `file` with its key (`key`, the text
 * taken out) reaches both shards of dsched, so a statement that lost its key fails the check.
 * `name` follows "the check sees ".
 */
export function itSeesALostKey(
  db: { pool: Pool },
  name: string,
  s: { file: string; key: string; params: unknown[] },
): void {
  it(`the check sees ${name}`, async () => {
    const keyed = productSql(s.file);
    const unkeyed = keyed.replace(s.key, '');
    expect(unkeyed).not.toBe(keyed);
    expect(shardsIn(await routeOf(db.pool, unkeyed, s.params))).toEqual(['-80', '80-']);
  });
}

/**
 * A pool on the test database whose sessions are in vtgate's single transaction mode, whatever the
 * server's default (scripts/vitess): a transaction of the product's that reaches a second shard or
 * keyspace through it fails ("multi-db transaction attempted"). Made before the file's tests and
 * ended after; call at the top of a route test file, use `.pool` in its tests.
 */
export function singleModePool(db: { url: string }): { pool: Pool } {
  const holder = {} as { pool: Pool };
  beforeAll(() => {
    holder.pool = createPool(db.url, { connectionLimit: 4 });
    holder.pool.pool.on('connection', (conn) => conn.query("SET transaction_mode = 'single'"));
  });
  afterAll(async () => {
    await holder.pool?.end();
  });
  return holder;
}
