import cassandra from 'cassandra-driver';

export type CassandraClient = cassandra.Client;

export interface CassandraSettings {
  contactPoints: string[];
  localDataCenter: string;
  keyspace?: string;
  username?: string | undefined;
  password?: string | undefined;
}

export function createCassandraClient(s: CassandraSettings): cassandra.Client {
  return new cassandra.Client({
    contactPoints: s.contactPoints,
    localDataCenter: s.localDataCenter,
    ...(s.keyspace ? { keyspace: s.keyspace } : {}),
    ...(s.username ? { credentials: { username: s.username, password: s.password ?? '' } } : {}),
    queryOptions: { prepare: true, consistency: cassandra.types.consistencies.localQuorum },
    socketOptions: { connectTimeout: 5_000, readTimeout: 12_000 },
    pooling: { coreConnectionsPerHost: { [cassandra.types.distance.local]: 2 } },
  });
}

export async function pingCassandra(client: cassandra.Client): Promise<void> {
  await client.execute('SELECT release_version FROM system.local');
}

/** A client whose cluster answered; a failure names the variable that points at it. */
export async function connectCassandra(
  s: CassandraSettings,
  variable = 'CASSANDRA_CONTACT_POINTS',
): Promise<cassandra.Client> {
  const client = createCassandraClient(s);
  try {
    await pingCassandra(client);
  } catch (err) {
    await client.shutdown().catch(() => undefined);
    throw new Error(`${variable}: cannot reach Cassandra (${(err as Error).message})`, { cause: err });
  }
  return client;
}

/** The settings of the cassandraConfigShape variables. */
export function cassandraSettings(config: {
  CASSANDRA_CONTACT_POINTS: string[];
  CASSANDRA_LOCAL_DC: string;
  CASSANDRA_KEYSPACE: string;
  CASSANDRA_USERNAME?: string | undefined;
  CASSANDRA_PASSWORD?: string | undefined;
}): CassandraSettings {
  return {
    contactPoints: config.CASSANDRA_CONTACT_POINTS,
    localDataCenter: config.CASSANDRA_LOCAL_DC,
    keyspace: config.CASSANDRA_KEYSPACE,
    username: config.CASSANDRA_USERNAME,
    password: config.CASSANDRA_PASSWORD,
  };
}
