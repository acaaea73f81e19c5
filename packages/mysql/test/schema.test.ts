import { readdirSync, readFileSync } from 'node:fs';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { describe, expect, it } from 'vitest';
import { dumpSchema, migrateMysql, schemaFile, serverFlavor } from '../src/migrations.ts';

const db = useTestDatabase(import.meta.url);

describe('migrations', () => {
  it('produce the committed schema of the engine (run `pnpm schema:dump` after adding one)', async () => {
    const committed = readFileSync(schemaFile(await serverFlavor(db.pool)), 'utf8');
    expect(await dumpSchema(db.pool)).toBe(committed);
  });

  it('produce the same tables, columns and indexes on MariaDB and MySQL', () => {
    // The two committed dumps, reduced to what both print alike: table, column and index names
    // in order, and each index's columns.
    const outline = (flavor: 'mariadb' | 'mysql') =>
      readFileSync(schemaFile(flavor), 'utf8')
        .split('\n')
        .map(
          (line) =>
            line.match(
              /^(CREATE TABLE `\w+`| {2}`\w+`| {2}(?:PRIMARY |UNIQUE )?KEY (?:`\w+` )?\([^)]*\))/,
            )?.[1],
        )
        .filter((line) => line !== undefined);
    expect(outline('mysql')).toEqual(outline('mariadb'));
    expect(outline('mariadb').length).toBeGreaterThan(100);
  });

  it('are idempotent and safe when several runners start at once', async () => {
    const results = await Promise.all([migrateMysql(db.pool), migrateMysql(db.pool), migrateMysql(db.pool)]);
    expect(results.flat()).toEqual([]);
  });
});

// Tests run on MariaDB, production on MySQL 8: constructs only one of them accepts must not
// enter the project's SQL (docs/sql-portability.md).
const NON_PORTABLE: [RegExp, string][] = [
  [/\bRETURNING\b/i, 'RETURNING (MySQL has none)'],
  [/\bVALUES\s+ROW\s*\(/i, 'VALUES ROW(...) (MySQL only)'],
  [/\)\s+AS\s+new\b/i, 'INSERT ... AS new alias (MariaDB rejects it)'],
  [/\bFOR\s+SHARE\b/i, 'FOR SHARE (use LOCK IN SHARE MODE)'],
  [/\bFOR\s+UPDATE\s+OF\b/i, 'FOR UPDATE OF'],
  [/->>?/, 'JSON -> / ->> operators'],
  [/\bUUID_TO_BIN\b/i, 'UUID_TO_BIN (MySQL only)'],
  [/\bINVISIBLE\b/i, 'INVISIBLE indexes'],
  [/^\s*WITH\b[\s\S]*\b(UPDATE|DELETE)\b/i, 'WITH ... UPDATE/DELETE'],
  [
    /\bSET\s+(SESSION\s+)?tx_isolation\b|\btransaction_isolation\s*=/i,
    'isolation variable (use SET SESSION TRANSACTION ISOLATION LEVEL)',
  ],
];

function sqlFiles(dir: URL): URL[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sqlFiles(new URL(`${e.name}/`, dir))
      : e.name.endsWith('.sql')
        ? [new URL(e.name, dir)]
        : [],
  );
}

describe('SQL portability', () => {
  const files = [
    ...sqlFiles(new URL('../src/', import.meta.url)),
    ...sqlFiles(new URL('../migrations/', import.meta.url)),
  ];

  it('finds the project’s SQL files', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((f) => [f.pathname.split('/packages/mysql/')[1], f] as const))(
    '%s uses only SQL both servers run',
    (_name, file) => {
      const text = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => !l.trim().startsWith('--'))
        .join('\n');
      const found = NON_PORTABLE.filter(([re]) => re.test(text)).map(([, why]) => why);
      expect(found).toEqual([]);
    },
  );
});
