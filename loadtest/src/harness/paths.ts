import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const LOADTEST_ROOT = `${REPO_ROOT}loadtest/`;
/** Kept in the repo: the latest report of each scenario. */
export const resultsDir = (scenario: string) => `${LOADTEST_ROOT}results/${scenario}/`;
/** Not kept (gitignored): logs and scratch of each run. */
export const scratchDir = (scenario: string) => `${LOADTEST_ROOT}results/tmp/${scenario}/`;
