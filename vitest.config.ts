import { defineConfig } from 'vitest/config';

// One runner for the whole workspace. Tests that touch storage use the real MariaDB and Cassandra
// of scripts/stack (brought up by the global setup when they are not running), a database and a
// keyspace per test file.
export default defineConfig({
  test: {
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    include: [
      'packages/*/test/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'loadtest/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
