import { MYSQL_SERVER_URL } from '@dsched/testkit/mysql';
import { afterAll, expect, it } from 'vitest';
import { createPool, type RowDataPacket } from '../src/pool.ts';

// What the pool hands back for integer results, the same on MariaDB and MySQL: MySQL types
// comparisons, IF(), LEAST() and DIV as BIGINT where MariaDB says INT.
const pool = createPool(`${MYSQL_SERVER_URL}/mysql`, { connectionLimit: 1 });
afterAll(async () => {
  await pool.end();
});

it('gives integer results as numbers on either engine, and a BIGINT past 2^53 as its exact digits', async () => {
  const [rows] = await pool.query<RowDataPacket[]>(
    `SELECT 2 > 1 AS cmp, IF(1 = 1, 5, 6) AS chosen, LEAST(3, 4) AS least_of, 7 DIV 2 AS quotient,
            COUNT(*) AS counted, CAST(9007199254740993 AS UNSIGNED) AS big, CAST(-5 AS SIGNED) AS negative
       FROM (SELECT 1 AS x UNION ALL SELECT 2) t`,
  );
  expect(rows[0]).toEqual({
    cmp: 1,
    chosen: 5,
    least_of: 3,
    quotient: 3,
    counted: 2,
    big: '9007199254740993',
    negative: -5,
  });
});
