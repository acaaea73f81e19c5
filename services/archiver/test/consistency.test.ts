import { type CassandraClient, createCassandraClient } from '@dsched/cassandra/client';
import { DEFAULT_PARTITIONS, partitionGroups } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { CASSANDRA_CONTACT_POINT, createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cassandraHistoryWriter, mysqlFinishedJobSource } from '../src/adapters/stores.ts';
import { Archiver } from '../src/core/archive.ts';
import { ArchiverMetrics } from '../src/metrics.ts';

// The archiver deletes a job from MySQL only once its history write was acknowledged at the
// configured level (CASSANDRA_WRITE_CONSISTENCY). The test keyspace is replicated 3 times on the
// stack's single node: LOCAL_QUORUM needs 2 replicas and only 1 can answer, as on a 3-node
// cluster that lost two (or, at ALL, one); ONE is met by the one node.
let db: TestDatabase;
let ks: TestKeyspace;
const clients: CassandraClient[] = [];

beforeAll(async () => {
  [db, ks] = await Promise.all([createTestDatabase(import.meta.url), createTestKeyspace(import.meta.url)]);
  // Migrated at one replica (the migrations' own writes need their level met), then raised.
  await ks.client.execute(
    `ALTER KEYSPACE ${ks.keyspace} WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}`,
  );
});
afterAll(async () => {
  for (const c of clients) await c.shutdown();
  await db.close();
  await ks.close();
});

/** A client of the test keyspace at these levels. */
function client(levels: { read: string; write: string }): CassandraClient {
  const c = createCassandraClient({
    contactPoints: [CASSANDRA_CONTACT_POINT],
    localDataCenter: 'datacenter1',
    keyspace: ks.keyspace,
    readConsistency: levels.read,
    writeConsistency: levels.write,
  });
  clients.push(c);
  return c;
}

async function succeededInMysql(): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    "SELECT COUNT(*) AS n FROM jobs WHERE state = 'succeeded'",
  );
  return Number(rows[0]!.n);
}

/** How many of the jobs the one node holds in history (read at ONE). */
async function inHistory(ids: string[]): Promise<number> {
  const reader = client({ read: 'ONE', write: 'ONE' });
  let n = 0;
  for (const id of ids) n += (await reader.execute('SELECT id FROM jobs_by_id WHERE id = ?', [id])).rowLength;
  return n;
}

const archiverWriting = (write: string) =>
  new Archiver({
    source: mysqlFinishedJobSource(db.pool, { deadRetentionSeconds: 3600 }),
    write: cassandraHistoryWriter(client({ read: 'LOCAL_QUORUM', write }), {
      ttlSeconds: 3600,
      concurrency: 4,
    }),
    metrics: new ArchiverMetrics(new Registry()),
    batchSize: 10,
    groups: () => partitionGroups(DEFAULT_PARTITIONS, []),
  });

describe('the archiver and the write consistency level', () => {
  it('deletes nothing while history writes cannot be acknowledged at the level, and moves them once they can', async () => {
    const { id: tenantId } = await createTenantWithKey(db.pool);
    const ids = await insertJobs(
      db.pool,
      Array.from({ length: 3 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: new Date(Date.now() - 60_000),
        state: 'succeeded' as const,
      })),
    );

    // LOCAL_QUORUM of 3 replicas with one node answering: the write fails, the rows stay.
    await expect(archiverWriting('LOCAL_QUORUM').runOnce()).rejects.toThrow(/LOCAL_QUORUM/);
    await expect(archiverWriting('ALL').runOnce()).rejects.toThrow(/ALL/);
    expect(await succeededInMysql()).toBe(3);
    expect(await inHistory(ids)).toBe(0);

    // ONE is met: written, then deleted (reads stay at LOCAL_QUORUM: the write level is its own).
    expect(await archiverWriting('ONE').runOnce()).toBe(false);
    expect(await succeededInMysql()).toBe(0);
    expect(await inHistory(ids)).toBe(3);
  });
});
