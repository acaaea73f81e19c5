import type { Failpoint } from '../ports.ts';

/** The test-only crash points of ARCHIVER_FAILPOINT. */
export type FailpointName = 'after-history-write' | 'after-workflow-history-write';

/**
 * TEST ONLY (ARCHIVER_FAILPOINT): dies like `kill -9` at the named point, between a history
 * write and the MySQL step after it (`after-history-write`: a batch of jobs, before its delete;
 * `after-workflow-history-write`: a workflow run's whole copy, before its mark and delete).
 * SIGKILL cannot be caught, so no shutdown step runs, exactly as in a real crash.
 */
export function failpoint(configured: FailpointName | undefined, here: FailpointName): Failpoint | undefined {
  if (configured !== here) return undefined;
  return () => {
    process.stderr.write(`archiver: ARCHIVER_FAILPOINT=${here} reached: SIGKILL\n`);
    process.kill(process.pid, 'SIGKILL');
  };
}
