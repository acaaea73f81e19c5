// Writes the schema the migrations produce, as SHOW CREATE TABLE prints it, for each engine that
// answers: packages/mysql/schema.sql from MariaDB (DSCHED_MARIADB_PORT, 3306) and
// packages/mysql/schema.mysql.sql from MySQL 9.7 (DSCHED_MYSQL_FLAVOR=mysql ./scripts/stack up;
// DSCHED_MYSQL_MYSQL_PORT, 3307). CI compares both (packages/mysql/test/schema.test.ts, on the
// MariaDB suite and on `pnpm test:mysql`), so a migration and its effect are reviewed together.
// Run after adding a migration: pnpm schema:dump
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpSchema, schemaFile, serverFlavor } from '@dsched/mysql/migrations';
import { createTestDatabase } from '@dsched/testkit/mysql';
import { portOpen } from '@dsched/testkit/ports';

const servers = [
  { flavor: 'mariadb', port: Number(process.env.DSCHED_MARIADB_PORT ?? 3306) },
  { flavor: 'mysql', port: Number(process.env.DSCHED_MYSQL_MYSQL_PORT ?? 3307) },
] as const;

let missing = 0;
for (const { flavor, port } of servers) {
  const file = relative(process.cwd(), fileURLToPath(schemaFile(flavor)));
  if (!(await portOpen(port))) {
    const up = flavor === 'mysql' ? 'DSCHED_MYSQL_FLAVOR=mysql ./scripts/stack up' : './scripts/stack up';
    console.error(`schema:dump: nothing answers on 127.0.0.1:${port}: ${file} NOT written (start it: ${up})`);
    missing += 1;
    continue;
  }
  const db = await createTestDatabase(import.meta.url, '_dump', `mysql://dsched:dsched@127.0.0.1:${port}`);
  try {
    const found = await serverFlavor(db.pool);
    if (found !== flavor) throw new Error(`127.0.0.1:${port} runs ${found}, not ${flavor}`);
    writeFileSync(schemaFile(flavor), await dumpSchema(db.pool));
    console.error(`schema:dump: ${file} from ${flavor} on 127.0.0.1:${port}`);
  } finally {
    await db.close();
  }
}
process.exitCode = missing > 0 ? 1 : 0;
