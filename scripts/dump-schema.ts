// Writes packages/mysql/schema.sql: the schema the migrations produce, as SHOW CREATE TABLE
// prints it on MariaDB. CI compares it (packages/mysql/test/schema.test.ts), so a migration
// and its effect are reviewed together. Run after adding a migration: pnpm schema:dump
import { writeFileSync } from 'node:fs';
import { dumpSchema } from '@dsched/mysql/migrations';
import { createTestDatabase } from '@dsched/testkit/mysql';

const db = await createTestDatabase(import.meta.url, '_dump');
try {
  writeFileSync(new URL('../packages/mysql/schema.sql', import.meta.url), await dumpSchema(db.pool));
} finally {
  await db.close();
}
