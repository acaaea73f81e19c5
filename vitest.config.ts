import { defineConfig } from 'vitest/config';

// One runner for the whole workspace, in two projects. `unit`: pure logic (the domain's decisions,
// config schemas, the executor's outcome mapping, the docs' links), no storage, no
// processes: `pnpm test:unit`. `storage`: every other test, on the real MariaDB and Cassandra of
// scripts/stack (brought up by the global setup when they are not running), a database and a
// keyspace per test file. `pnpm test` runs both.
const UNIT = [
  'packages/domain/test/**/*.test.ts',
  'packages/runtime/test/**/*.test.ts',
  'services/*/test/config.test.ts',
  'services/executor/test/transitions.test.ts',
  'packages/client/test/webhook.test.ts',
  'packages/client/test/generated.test.ts',
  'test/docs/*.test.ts',
  'test/shape/**/*.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'storage',
          globalSetup: ['./scripts/vitest-global-setup.ts'],
          include: [
            'packages/*/test/**/*.test.ts',
            'services/*/test/**/*.test.ts',
            'loadtest/test/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          exclude: UNIT,
        },
      },
    ],
  },
});
