import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  acquirePartitionLeases,
  countMembers,
  ensurePartitionLeases,
  forgetDeadMembers,
  heartbeatMember,
  partitionLeaseName,
} from '../src/leases/partition-leases.ts';
import { loadSql } from '../src/sql.ts';

const ACQUIRE = loadSql(new URL('../src/leases/', import.meta.url).href, './acquire-leases.sql');

// The partition lease statements on their own: a held lease is never taken, and the member rows
// that size each replica's share are forgotten only long after they expired.

const db = useTestDatabase(import.meta.url);

beforeAll(async () => {
  await ensurePartitionLeases(db.pool, 4);
});

describe('partition leases', () => {
  it('are not taken while their holder’s lease runs, and are taken with a new token once it ran out', async () => {
    const a = await acquirePartitionLeases(db.pool, 'a', 4, 4, 60_000);
    expect(a).toHaveLength(4);
    expect(await acquirePartitionLeases(db.pool, 'b', 4, 4, 60_000)).toEqual([]);
    await db.pool.query("UPDATE leases SET expires_at = NOW(3) - INTERVAL 1 SECOND WHERE holder = 'a'");
    const b = await acquirePartitionLeases(db.pool, 'b', 4, 4, 60_000);
    expect(b.map((l) => l.partition).sort()).toEqual([0, 1, 2, 3]);
    for (const l of b) expect(l.token).not.toBe(a.find((x) => x.partition === l.partition)!.token);
  });

  it('a takeover that read a lease as free just before another replica took it matches nothing', async () => {
    // acquirePartitionLeases reads the free names without a lock; the statement itself refuses
    // a lease someone holds now.
    const [res] = await db.pool.query<ResultSetHeader>(ACQUIRE, ['c', 60_000, [partitionLeaseName(0)]]);
    expect(res.affectedRows).toBe(0);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT holder FROM leases WHERE name = ?', [
      partitionLeaseName(0),
    ]);
    expect(rows[0]!.holder).toBe('b');
  });

  it('members: a live one is kept when the long-dead are forgotten', async () => {
    await heartbeatMember(db.pool, 'live', 10_000);
    await heartbeatMember(db.pool, 'dead', 10_000);
    await db.pool.query(
      "UPDATE leases SET expires_at = NOW(3) - INTERVAL 2 HOUR WHERE holder = 'dead' AND name LIKE 'scheduler.member.%'",
    );
    await forgetDeadMembers(db.pool);
    expect(await countMembers(db.pool)).toBe(1);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT holder FROM leases WHERE name LIKE ?', [
      'scheduler.member.%',
    ]);
    expect(rows.map((r) => r.holder)).toEqual(['live']);
  });
});
