import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type Pool } from '@dsched/mysql/pool';
import mysql from 'mysql2/promise';
import { assertTestName, testStoreName } from './names.ts';

export const MYSQL_SERVER_URL =
  process.env.DSCHED_TEST_MYSQL_URL ??
  `mysql://dsched:dsched@127.0.0.1:${process.env.DSCHED_MYSQL_PORT ?? 3306}`;

export interface TestDatabase {
  name: string;
  url: string;
  pool: Pool;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (dropped and recreated at start, kept afterwards
 * so a failed test's rows can be inspected).
 */
export async function createTestDatabase(
  fileUrl: string,
  suffix = '',
  server = MYSQL_SERVER_URL,
): Promise<TestDatabase> {
  const name = `${testStoreName(fileUrl)}${suffix}`.slice(0, 64);
  assertTestName(name);
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
  return { name, url, pool, close: () => pool.end() };
}
