import { type CassandraClient, createCassandraClient } from '@dsched/cassandra/client';
import { migrateCassandra } from '@dsched/cassandra/migrations';
import { assertTestName, testStoreName } from './names.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export const CASSANDRA_CONTACT_POINT =
  process.env.DSCHED_TEST_CASSANDRA ?? `127.0.0.1:${process.env.DSCHED_CASSANDRA_PORT ?? 9042}`;

export interface TestKeyspace {
  keyspace: string;
  client: CassandraClient;
  close(): Promise<void>;
}

/** A fresh, migrated keyspace for one test file, dropped by close(). */
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
  // Dropped at the end, unlike the MySQL test databases: every keyspace's tables hold memory in
  // the one shared Cassandra whether used or not, and keyspaces of every checkout and test file
  // that ever ran (hundreds, ~2,000 tables) once ran its 1 GiB heap out of memory.
  const close = async () => {
    try {
      await client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
    } finally {
      await client.shutdown();
    }
  };
  return { keyspace, client, close };
}

/**
 * A client of the keyspace through a TCP relay in front of the shared node: `proxy.cut()` makes
 * Cassandra unreachable for this client alone (every connection reset, the server untouched).
 */
export async function connectThroughRelay(
  keyspace: string,
): Promise<{ client: CassandraClient; proxy: TcpProxy; close(): Promise<void> }> {
  const [host, port] = CASSANDRA_CONTACT_POINT.split(':');
  const proxy = await startTcpProxy({ host: host!, port: Number(port ?? 9042) });
  const client = createCassandraClient({
    contactPoints: [`127.0.0.1:${proxy.port}`],
    localDataCenter: 'datacenter1',
    keyspace,
  });
  await client.connect();
  return {
    client,
    proxy,
    close: async () => {
      await client.shutdown();
      await proxy.close();
    },
  };
}
