import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type cassandra from 'cassandra-driver';

// Numbered CQL migrations, recorded in <keyspace>.schema_migrations. Replicas starting together
// serialise on a lightweight-transaction lock row that expires on its own if its holder dies.

export const CQL_MIGRATIONS_DIR = new URL('../migrations/', import.meta.url);

export function splitCql(cql: string): string[] {
  return cql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const KEYSPACE_RE = /^[a-z][a-z0-9_]{0,47}$/;

export async function migrateCassandra(
  client: cassandra.Client,
  options: { keyspace: string; replication?: string; dir?: URL; log?: (msg: string) => void },
): Promise<string[]> {
  const { keyspace } = options;
  if (!KEYSPACE_RE.test(keyspace)) throw new Error(`invalid keyspace name ${keyspace}`);
  const log = options.log ?? (() => undefined);
  const replication = options.replication ?? "{'class': 'SimpleStrategy', 'replication_factor': 1}";
  await client.execute(`CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = ${replication}`);
  await client.execute(
    `CREATE TABLE IF NOT EXISTS ${keyspace}.schema_migrations (version text PRIMARY KEY, name text, checksum text, applied_at timestamp)`,
  );
  await client.execute(
    `CREATE TABLE IF NOT EXISTS ${keyspace}.schema_migrations_lock (id text PRIMARY KEY, holder text)`,
  );
  // Migration files name tables without a keyspace: USE switches every connection of the client.
  await client.execute(`USE ${keyspace}`);
  const holder = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await client.execute(
      `INSERT INTO ${keyspace}.schema_migrations_lock (id, holder) VALUES ('lock', ?) IF NOT EXISTS USING TTL 120`,
      [holder],
    );
    // A retried insert that had gone through finds its own holder: the lock is ours.
    if (res.first()?.get('[applied]') === true || res.first()?.get('holder') === holder) break;
    if (Date.now() > deadline) throw new Error('could not take the Cassandra migration lock within 120 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    const applied = new Map<string, string>();
    for (const row of (await client.execute(`SELECT version, checksum FROM ${keyspace}.schema_migrations`))
      .rows) {
      applied.set(row.get('version'), row.get('checksum'));
    }
    const dir = options.dir ?? CQL_MIGRATIONS_DIR;
    const ran: string[] = [];
    for (const file of readdirSync(dir)
      .filter((f) => /^\d{4}_[a-z0-9_]+\.cql$/.test(f))
      .sort()) {
      const cql = readFileSync(new URL(file, dir), 'utf8');
      const checksum = createHash('sha256').update(cql).digest('hex');
      const version = file.slice(0, 4);
      const seen = applied.get(version);
      if (seen !== undefined) {
        if (seen !== checksum) throw new Error(`CQL migration ${file} changed after it was applied`);
        continue;
      }
      log(`applying ${file}`);
      for (const statement of splitCql(cql)) await client.execute(statement);
      await client.execute(
        `INSERT INTO ${keyspace}.schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, toTimestamp(now()))`,
        [version, file.slice(5, -4), checksum],
      );
      ran.push(file);
    }
    return ran;
  } finally {
    await client.execute(`DELETE FROM ${keyspace}.schema_migrations_lock WHERE id = 'lock' IF holder = ?`, [
      holder,
    ]);
  }
}
