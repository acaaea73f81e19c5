import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';

// Forward-only numbered migrations (NNNN_name.sql), each applied once and recorded with its
// checksum. Two replicas starting at once serialise on a named lock; an applied file that was
// edited afterwards stops the run, because the schema would no longer match its history.

export const MYSQL_MIGRATIONS_DIR = new URL('../migrations/', import.meta.url);

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: URL = MYSQL_MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(new URL(file, dir), 'utf8');
      return {
        version: file.slice(0, 4),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/** Splits a migration into statements: each ends with `;` at the end of a line. */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * On Vitess (docs/sharding.md) the migrations go through vtgate, which routes each statement by its
 * table to the sharded keyspace or the global one. The migrations up to the one that gave the hot
 * tables their shard key were written for one server, and their data statements (backfills, seed
 * rows) cannot all be planned by vtgate (joins across keyspaces, rows without their key). A
 * keyspace is new when it meets them, so they are skipped where their table is empty (nothing to
 * backfill) and refused where it is not. Every later migration runs whole through vtgate. The last
 * such is 0061, the shard key's own: its backfill writes the vindex column, which vtgate refuses.
 */
export const LAST_SINGLE_SERVER_MIGRATION = '0061';

const DATA_STATEMENT = /^\s*(?:INSERT(?:\s+IGNORE)?\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+`?(\w+)`?/i;

export type MysqlTopology = 'single' | 'vitess';

export async function migrateMysql(
  pool: Pool,
  options: { dir?: URL; log?: (msg: string) => void; topology?: MysqlTopology } = {},
): Promise<string[]> {
  const log = options.log ?? (() => undefined);
  const vitess = options.topology === 'vitess';
  const conn = await pool.getConnection();
  try {
    await conn.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version CHAR(4) CHARACTER SET ascii NOT NULL PRIMARY KEY,
         name VARCHAR(200) NOT NULL,
         checksum CHAR(64) CHARACTER SET ascii NOT NULL,
         applied_at DATETIME(3) NOT NULL
       ) ENGINE=InnoDB`,
    );
    // vtgate answers a lock function under its own column name (not the alias): read it by position.
    const [[lock]] = await conn.query<RowDataPacket[]>(
      "SELECT GET_LOCK(CONCAT(DATABASE(), '.dsched_migrate'), 120) AS acquired",
    );
    if (Number(Object.values(lock ?? {})[0]) !== 1)
      throw new Error('could not take the migration lock within 120 s');
    try {
      const [rows] = await conn.query<RowDataPacket[]>('SELECT version, checksum FROM schema_migrations');
      const applied = new Map(rows.map((r) => [String(r.version), String(r.checksum)]));
      const ran: string[] = [];
      for (const m of readMigrations(options.dir)) {
        const seen = applied.get(m.version);
        if (seen !== undefined) {
          if (seen !== m.checksum)
            throw new Error(`migration ${m.version}_${m.name} changed after it was applied`);
          continue;
        }
        log(`applying ${m.version}_${m.name}`);
        for (const statement of splitStatements(m.sql)) {
          if (
            vitess &&
            m.version <= LAST_SINGLE_SERVER_MIGRATION &&
            (await skipOnVitess(conn, m, statement))
          ) {
            continue;
          }
          await (vitess ? queryAfterSchemaChange(conn, statement) : conn.query(statement));
        }
        await conn.query(
          'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, NOW(3))',
          [m.version, m.name, m.checksum],
        );
        ran.push(`${m.version}_${m.name}`);
      }
      return ran;
    } finally {
      await conn.query("SELECT RELEASE_LOCK(CONCAT(DATABASE(), '.dsched_migrate'))");
    }
  } finally {
    conn.release();
  }
}

/**
 * vtgate plans with the schema its tablets last reported, which trails a DDL it has just passed on
 * by a moment: a statement naming a column or table a migration's previous statement made can be
 * refused as unknown. It is retried for up to 30 s.
 */
async function queryAfterSchemaChange(conn: PoolConnection, statement: string): Promise<void> {
  for (let waited = 0; ; waited += 250) {
    try {
      await conn.query(statement);
      return;
    } catch (err) {
      const unknown = /(column|table) '[^']+' not found/i.test(String((err as Error).message));
      if (!unknown || waited >= 30_000) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** A single-server migration's data statement on Vitess: skipped on an empty table, refused otherwise. */
async function skipOnVitess(conn: PoolConnection, m: Migration, statement: string): Promise<boolean> {
  const table = DATA_STATEMENT.exec(statement)?.[1];
  if (!table) return false;
  const [rows] = await conn.query<RowDataPacket[]>(`SELECT 1 FROM \`${table}\` LIMIT 1`);
  if (rows.length === 0) return true;
  throw new Error(
    `migration ${m.version}_${m.name}: its data statement on ${table} was written for one server and ` +
      `${table} has rows; run the migrations on one server and move the data to Vitess (docs/vitess.md)`,
  );
}

/** Which engine a pool talks to: the two print the same schema in different words. */
export async function serverFlavor(pool: Pool): Promise<'mariadb' | 'mysql'> {
  const [[row]] = await pool.query<RowDataPacket[]>('SELECT VERSION() AS v');
  return /mariadb/i.test(String(row!.v)) ? 'mariadb' : 'mysql';
}

/** The committed schema file of an engine, beside the package's src/ (packages/mysql/). */
export function schemaFile(flavor: 'mariadb' | 'mysql'): URL {
  return new URL(flavor === 'mariadb' ? '../schema.sql' : '../schema.mysql.sql', import.meta.url);
}

/**
 * The schema as SHOW CREATE TABLE prints it, for the committed schema files CI compares: one per
 * engine (schemaFile), as MariaDB and MySQL print the same tables differently (JSON a checked
 * LONGTEXT or a native type, display widths, quoting of defaults and expressions).
 */
export async function dumpSchema(pool: Pool): Promise<string> {
  const [tables] = await pool.query<RowDataPacket[]>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name <> 'schema_migrations' ORDER BY table_name",
  );
  // In code-unit order: the engines' information_schema collations order `_` apart.
  const names = tables.map((t) => String(t.name)).sort();
  const parts: string[] = [];
  for (const name of names) {
    const [[row]] = await pool.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${name}\``);
    parts.push(`${String(row!['Create Table']).replace(/ AUTO_INCREMENT=\d+/, '')};`);
  }
  return `${parts.join('\n\n')}\n`;
}
