import { DEFAULT_PARTITIONS, type PartitionGroup, partitionGroups } from '@dsched/domain';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import mysql from 'mysql2/promise';
import { assertTestName, testStoreName } from './names.ts';

export const MYSQL_SERVER_URL =
  process.env.DSCHED_TEST_MYSQL_URL ??
  `mysql://dsched:dsched@127.0.0.1:${process.env.DSCHED_MYSQL_PORT ?? 3306}`;

/**
 * `pnpm test:vitess` (DSCHED_MYSQL_TOPOLOGY=vitess): the tests run through vtgate. A keyspace
 * cannot be made per test file there (vtgate's CREATE DATABASE makes an unsharded one), so each
 * test worker has a vttestserver of its own (scripts/vitess testserver up N, N = VITEST_POOL_ID,
 * vtgate on DSCHED_VITESS_PORT + 10·N) and a test file empties its tables at start instead.
 */
export const VITESS = process.env.DSCHED_MYSQL_TOPOLOGY === 'vitess';

/**
 * The test database's groups of partitions, one per shard (docs/sharding.md): two through
 * vttestserver's two shards, one of every partition on one server. A product pass keyed by a group
 * (a reconciler's, a lease renewal's) serves one group at a time, as the services do.
 */
export const TEST_GROUPS: readonly PartitionGroup[] = partitionGroups(
  DEFAULT_PARTITIONS,
  VITESS ? ['-80', '80-'] : [],
);

/** Runs a pass once per group of TEST_GROUPS, one after the other, and adds up the counts it returns. */
export async function inEachGroup<R extends object>(
  pass: (partitions: readonly number[]) => Promise<R>,
): Promise<R> {
  const sum: Record<string, number> = {};
  for (const g of TEST_GROUPS) {
    for (const [k, v] of Object.entries(await pass(g.partitions))) sum[k] = (sum[k] ?? 0) + Number(v);
  }
  return sum as R;
}

export interface TestDatabase {
  name: string;
  url: string;
  pool: Pool;
  /**
   * For a test's own set-up and inspection statements that may reach every shard (emptying a
   * table, ageing a lease by id alone): `pool` itself on one server; through vtgate, a pool whose
   * sessions are in multi transaction mode, so that a server in single mode (scripts/vitess,
   * DSCHED_VITESS_TRANSACTION_MODE) refuses only the product's transactions, not the test's.
   */
  fixtures: Pool;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (dropped and recreated at start, kept afterwards
 * so a failed test's rows can be inspected). Through vtgate: this worker's keyspaces, emptied.
 */
export async function createTestDatabase(
  fileUrl: string,
  suffix = '',
  server = MYSQL_SERVER_URL,
): Promise<TestDatabase> {
  const name = `${testStoreName(fileUrl)}${suffix}`.slice(0, 64);
  assertTestName(name);
  if (VITESS) return vitessTestDatabase(name, suffix);
  const admin = await mysql.createConnection(`${server}/mysql`);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const url = `${server}/${name}`;
  const pool = createPool(url, { connectionLimit: 20 });
  await migrateMysql(pool);
  return { name, url, pool, fixtures: pool, close: () => pool.end() };
}

/** vtgate of this test worker's vttestserver (scripts/vitess: instance N on base + 10·N). */
export function vitessTestPort(): number {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return Number(process.env.DSCHED_VITESS_PORT ?? 15306) + 10 * worker;
}

/**
 * vtgate plans with the columns its tablets last reported, a moment behind the migrations just
 * run: until then a statement naming a new column can be refused ("column … not found"). Waits
 * (up to 30 s) until vtgate plans a write naming every column the shards have, for each sharded
 * table: a `DELETE … WHERE 1 = 0` (it deletes nothing). A read is no proof: vtgate sends a join of
 * one table to every shard without checking its columns, and `SHOW COLUMNS` is the shard's answer,
 * so a column 0064 had just added passed both while an update naming it was refused for about a
 * second (watched on a fresh vttestserver). The probes reach every shard: a multi-mode session.
 */
export async function untilVtgateSeesSchema(pool: Pool): Promise<void> {
  const conn = await pool.getConnection();
  try {
    await conn.query("SET transaction_mode = 'multi'");
    const [tables] = await conn.query<RowDataPacket[]>('SHOW TABLES FROM `dsched`');
    for (const row of tables) {
      const table = String(Object.values(row)[0]);
      const [columns] = await conn.query<RowDataPacket[]>(`SHOW COLUMNS FROM \`dsched\`.\`${table}\``);
      const named = columns.map((c) => `\`${String(c.Field)}\` IS NULL`).join(' OR ');
      const probe = `DELETE FROM \`${table}\` WHERE 1 = 0 AND (${named})`;
      for (let waited = 0; ; waited += 250) {
        try {
          await conn.query(probe);
          break;
        } catch (err) {
          if (waited >= 30_000) throw err;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    }
  } finally {
    conn.destroy();
  }
}

/** The keyspaces of scripts/vitess's vttestserver (deploy/vitess's VSchemas). */
const VITESS_KEYSPACES = ['dsched', 'dsched_global'];

async function vitessTestDatabase(name: string, suffix: string): Promise<TestDatabase> {
  if (suffix !== '')
    throw new Error(`a second test database (${name}) is not available through vtgate: one per test worker`);
  // `@primary` names no keyspace: vtgate routes each table to the keyspace that has it.
  const url = `mysql://dsched:dsched@127.0.0.1:${vitessTestPort()}/@primary`;
  const pool = createPool(url, { connectionLimit: 20 });
  // Waited for even when another file on this server applied them a moment ago.
  await migrateMysql(pool, { topology: 'vitess' });
  await untilVtgateSeesSchema(pool);
  // Emptied by deletes that reach every shard: vtgate in single transaction mode (scripts/vitess)
  // refuses them, so they run on a connection of their own in multi mode, then closed.
  const conn = await pool.getConnection();
  try {
    await conn.query("SET transaction_mode = 'multi'");
    for (const keyspace of VITESS_KEYSPACES) {
      const [tables] = await conn.query<RowDataPacket[]>(`SHOW TABLES FROM \`${keyspace}\``);
      for (const row of tables) {
        const table = String(Object.values(row)[0]);
        if (table !== 'schema_migrations') await conn.query(`DELETE FROM \`${keyspace}\`.\`${table}\``);
      }
    }
  } finally {
    conn.destroy();
  }
  const fixtures = createPool(url, { connectionLimit: 4 });
  fixtures.pool.on('connection', (c) => c.query("SET transaction_mode = 'multi'"));
  return {
    name,
    url,
    pool,
    fixtures,
    close: async () => {
      await Promise.all([pool.end(), fixtures.end()]);
    },
  };
}
