import { storeUnavailable } from '@dsched/domain';
import cassandra from 'cassandra-driver';
import { checkConsistency, consistencyOf } from './consistency.ts';

export type CassandraClient = cassandra.Client;

/** The execution profile of history's writes: the write level (CASSANDRA_WRITE_CONSISTENCY). */
export const HISTORY_WRITES = 'history-writes';

export interface CassandraSettings {
  contactPoints: string[];
  localDataCenter: string;
  keyspace?: string;
  username?: string | undefined;
  password?: string | undefined;
  /** The level of every statement that names none (history's reads), LOCAL_QUORUM by default. */
  readConsistency?: string;
  /** History's writes (the archiver passes it to them): checked at start with the read level. */
  writeConsistency?: string;
}

/**
 * The port the contact points name, when they all name the same one. The driver (4.10 reads
 * system.peers, which has no native port) gives every node it discovers `protocolOptions.port`,
 * 9042 unless told: with nodes on another port it would drop the contact points for addresses
 * nothing listens on, and talk to the one node its control connection found.
 */
export function nativePortOf(contactPoints: string[]): number | undefined {
  // host:port or [IPv6]:port; a bare host or IPv6 address names none (9042).
  const ports = new Set(contactPoints.map((p) => /^(?:\[[^\]]+\]|[^:]+):(\d+)$/.exec(p)?.[1] ?? '9042'));
  return ports.size === 1 ? Number([...ports][0]) : undefined;
}

export function createCassandraClient(s: CassandraSettings): cassandra.Client {
  const port = nativePortOf(s.contactPoints);
  const client = new cassandra.Client({
    contactPoints: s.contactPoints,
    ...(port ? { protocolOptions: { port } } : {}),
    localDataCenter: s.localDataCenter,
    ...(s.keyspace ? { keyspace: s.keyspace } : {}),
    ...(s.username ? { credentials: { username: s.username, password: s.password ?? '' } } : {}),
    // Every history statement is idempotent (reads, and upserts of fixed values keyed by the job):
    // one cut short by a node that died is retried on another by the driver, not failed.
    queryOptions: { prepare: true, isIdempotent: true },
    profiles: [
      new cassandra.ExecutionProfile('default', {
        consistency: consistencyOf(s.readConsistency ?? 'LOCAL_QUORUM'),
      }),
      new cassandra.ExecutionProfile(HISTORY_WRITES, {
        consistency: consistencyOf(s.writeConsistency ?? 'LOCAL_QUORUM'),
      }),
    ],
    socketOptions: { connectTimeout: 5_000, readTimeout: 12_000 },
    pooling: { coreConnectionsPerHost: { [cassandra.types.distance.local]: 2 } },
    // A node that was down is tried again every 10 s at most (the driver's default backs off to
    // 10 minutes): back from a restart, it takes its share again within seconds.
    policies: {
      reconnection: new cassandra.policies.reconnection.ExponentialReconnectionPolicy(1_000, 10_000),
    },
  });
  return preparingPastEmptyPools(client);
}

/** The driver's error for a host whose pool has no open connection. */
const isEmptyPool = (err: unknown) => err instanceof Error && err.message === 'No connection available';

/**
 * The driver (4.10) prepares a statement on the first host of the query plan and fails the call when
 * that host's pool is empty ("No connection available" is not a socket error to it), where a request
 * moves on to the next host. A node killed -9 leaves its pools empty while the driver may still
 * count it up (job-api answered 500 twice so in `cassandra-node-down`, and an archiver at ALL failed
 * so for a minute), so the first use of a statement could fail while two replicas answer. Such a
 * call sent nothing: it is made again, each time on a new query plan, which starts at the next host.
 */
function preparingPastEmptyPools(client: cassandra.Client): cassandra.Client {
  type Call = (...args: unknown[]) => Promise<unknown>;
  const again =
    (call: Call): Call =>
    async (...args) => {
      // A callback (never used here) gets the driver's own behaviour.
      if (typeof args.at(-1) === 'function') return call(...args);
      for (let tries = 1; ; tries++) {
        try {
          return await call(...args);
        } catch (err) {
          if (!isEmptyPool(err) || tries >= Math.max(3, client.hosts.length)) throw err;
        }
      }
    };
  client.execute = again(client.execute.bind(client) as Call) as typeof client.execute;
  client.batch = again(client.batch.bind(client) as Call) as typeof client.batch;
  return client;
}

/** Asks the node itself (system.local has one replica, its own): at ONE, whatever history's levels. */
export async function pingCassandra(client: cassandra.Client): Promise<void> {
  await client.execute('SELECT release_version FROM system.local', [], {
    consistency: cassandra.types.consistencies.localOne,
  });
}

/**
 * A client whose cluster answered; a failure names the variable that points at it. With a keyspace,
 * the consistency levels are checked against its replication and the cluster (checkConsistency).
 */
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
  if (s.keyspace) {
    try {
      await checkConsistency(client, s.keyspace, s.localDataCenter, {
        read: s.readConsistency ?? 'LOCAL_QUORUM',
        write: s.writeConsistency ?? 'LOCAL_QUORUM',
      });
    } catch (err) {
      await client.shutdown().catch(() => undefined);
      throw err;
    }
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
  CASSANDRA_READ_CONSISTENCY: string;
  CASSANDRA_WRITE_CONSISTENCY: string;
}): CassandraSettings {
  return {
    contactPoints: config.CASSANDRA_CONTACT_POINTS,
    localDataCenter: config.CASSANDRA_LOCAL_DC,
    keyspace: config.CASSANDRA_KEYSPACE,
    username: config.CASSANDRA_USERNAME,
    password: config.CASSANDRA_PASSWORD,
    readConsistency: config.CASSANDRA_READ_CONSISTENCY,
    writeConsistency: config.CASSANDRA_WRITE_CONSISTENCY,
  };
}

const UNAVAILABLE_CODES = new Set([
  cassandra.types.responseErrorCodes.unavailableException,
  cassandra.types.responseErrorCodes.overloaded,
  cassandra.types.responseErrorCodes.isBootstrapping,
  cassandra.types.responseErrorCodes.readTimeout,
  cassandra.types.responseErrorCodes.writeTimeout,
]);

/**
 * Whether an error of the driver means the cluster cannot be reached or cannot answer right now
 * (no host, a timeout, too few replicas), as opposed to a bad query: the caller answers "try
 * again later" rather than "internal error".
 */
export function isCassandraUnreachable(err: unknown): boolean {
  if (err instanceof cassandra.errors.NoHostAvailableError) return true;
  if (err instanceof cassandra.errors.OperationTimedOutError) return true;
  if (err instanceof cassandra.errors.BusyConnectionError) return true;
  return err instanceof cassandra.errors.ResponseError && UNAVAILABLE_CODES.has(err.code);
}

/**
 * Runs a read of history; when it fails because Cassandra cannot be reached, raises
 * storeUnavailable('history'): 503 with Retry-After rather than 500 (decision D20), so what lives
 * in MySQL is still served and the client is told to come back.
 */
export async function readHistory<T>(read: () => Promise<T>, message: string): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isCassandraUnreachable(err)) throw storeUnavailable('history', message, err);
    throw err;
  }
}
