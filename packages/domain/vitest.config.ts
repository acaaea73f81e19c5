import { defineConfig } from 'vitest/config';

// The domain package's own tests alone: what Stryker runs against each mutant of
// packages/domain/src (stryker.config.json). `pnpm test` runs them through the root config.
export default defineConfig({
  test: {
    include: ['packages/domain/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
  },
});
