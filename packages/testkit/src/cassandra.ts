import { type CassandraClient, createCassandraClient } from '@dsched/cassandra/client';
import { migrateCassandra } from '@dsched/cassandra/migrations';
import { assertTestName, testStoreName } from './names.ts';

export const CASSANDRA_CONTACT_POINT =
  process.env.DSCHED_TEST_CASSANDRA ?? `127.0.0.1:${process.env.DSCHED_CASSANDRA_PORT ?? 9042}`;

export interface TestKeyspace {
  keyspace: string;
  client: CassandraClient;
  close(): Promise<void>;
}

/** A fresh, migrated keyspace for one test file. */
export async function createTestKeyspace(fileUrl: string): Promise<TestKeyspace> {
  const keyspace = testStoreName(fileUrl).slice(0, 48);
  assertTestName(keyspace);
  const admin = createCassandraClient({
    contactPoints: [CASSANDRA_CONTACT_POINT],
    localDataCenter: 'datacenter1',
  });
  try {
    await admin.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
    await migrateCassandra(admin, { keyspace });
  } finally {
    await admin.shutdown();
  }
  const client = createCassandraClient({
    contactPoints: [CASSANDRA_CONTACT_POINT],
    localDataCenter: 'datacenter1',
    keyspace,
  });
  return { keyspace, client, close: () => client.shutdown() };
}
