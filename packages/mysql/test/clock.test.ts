import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { databaseNow } from '../src/pool.ts';

// The one clock: MySQL's NOW(3), or an instant a test stands in for it (database-now.sql).

const db = useTestDatabase(import.meta.url);

describe('databaseNow', () => {
  it("is the server's clock, as a Date", async () => {
    const [[row]] = await db.pool.query<RowDataPacket[]>('SELECT NOW(3) AS db_now');
    const now = await databaseNow(db.pool);
    expect(now).toBeInstanceOf(Date);
    expect(now.getTime()).toBeGreaterThanOrEqual((row!.db_now as Date).getTime());
  });

  it('answers the instant a test passes, to the millisecond, still as a Date', async () => {
    const at = new Date('2031-02-03T04:05:06.789Z');
    const now = await databaseNow(db.pool, at);
    expect(now).toBeInstanceOf(Date);
    expect(now.toISOString()).toBe(at.toISOString());
  });
});
