// Applies the MySQL and Cassandra migrations (forward-only, safe to run from several places at
// once). Used by scripts/stack up, the docker-compose migration step and the Kubernetes Job.
import { createCassandraClient } from '@dsched/cassandra/client';
import { migrateCassandra } from '@dsched/cassandra/migrations';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type RowDataPacket } from '@dsched/mysql/pool';
import { cassandraConfigShape, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

const config = loadConfig(
  z.object({
    ...mysqlConfigShape,
    ...cassandraConfigShape,
    DATABASE_URL: mysqlConfigShape.DATABASE_URL.default('mysql://dsched:dsched@127.0.0.1:3306/dsched'),
    CASSANDRA_REPLICATION: z.string().default("{'class': 'SimpleStrategy', 'replication_factor': 1}"),
    MIGRATE_ONLY: z.enum(['mysql', 'cassandra', 'all']).default('all'),
  }),
  process.env,
);

const log = (msg: string) => process.stderr.write(`migrate: ${msg}\n`);

/**
 * The database named in DATABASE_URL, created when missing (a new checkout's own database). It
 * connects without a default database and creates only when the schema is not visible, so a
 * production user granted rights on its own database alone (no access to `mysql`, no CREATE) works.
 */
async function createDatabaseIfMissing(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`DATABASE_URL: unsupported database name "${name}"`);
  u.pathname = '/';
  const server = createPool(u.toString(), { connectionLimit: 1 });
  try {
    const [rows] = await server.query<RowDataPacket[]>(
      'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [name],
    );
    if (rows.length === 0) await server.query(`CREATE DATABASE IF NOT EXISTS \`${name}\``);
  } finally {
    await server.end();
  }
}

if (config.MIGRATE_ONLY !== 'cassandra') {
  // Through vtgate the keyspaces exist already (created with the cluster, docs/vitess.md).
  if (config.MYSQL_TOPOLOGY === 'single') await createDatabaseIfMissing(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, { connectionLimit: 1 });
  try {
    const ran = await migrateMysql(pool, { log, topology: config.MYSQL_TOPOLOGY });
    log(`mysql: ${ran.length} applied`);
  } finally {
    await pool.end();
  }
}
if (config.MIGRATE_ONLY !== 'mysql') {
  const client = createCassandraClient({
    contactPoints: config.CASSANDRA_CONTACT_POINTS,
    localDataCenter: config.CASSANDRA_LOCAL_DC,
    username: config.CASSANDRA_USERNAME,
    password: config.CASSANDRA_PASSWORD,
  });
  try {
    const ran = await migrateCassandra(client, {
      keyspace: config.CASSANDRA_KEYSPACE,
      replication: config.CASSANDRA_REPLICATION,
      log,
    });
    log(`cassandra (${config.CASSANDRA_KEYSPACE}): ${ran.length} applied`);
  } finally {
    await client.shutdown();
  }
}
