import { baseConfigShape, cassandraConfigShape, env, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

export const archiverConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  ...cassandraConfigShape,
  METRICS_PORT: env.port(9104),
  ARCHIVER_INTERVAL_MS: env.positiveInt(1000),
  ARCHIVER_BATCH_SIZE: env.positiveInt(500),
  ARCHIVER_CONCURRENCY: env.positiveInt(64),
  /** Dead jobs stay in MySQL (the DLQ) this long before moving to history. */
  DLQ_RETENTION_S: env.nonNegativeInt(7 * 86_400),
  HISTORY_TTL_DAYS: env.positiveInt(90),
  /** The archiver yields while at least this many pending jobs are due (0: never yields). */
  ARCHIVER_YIELD_BACKLOG: env.nonNegativeInt(200),
  /** The longest one yield lasts before archiving resumes regardless. */
  ARCHIVER_MAX_YIELD_MS: env.positiveInt(120_000),
  /**
   * TEST ONLY. `after-history-write` makes the process kill itself with SIGKILL right after the
   * first batch reached Cassandra and before its MySQL delete: the crash invariant 5 must survive.
   * `after-workflow-history-write`: the same after the first workflow run's copy, before its mark.
   */
  ARCHIVER_FAILPOINT: z.enum(['after-history-write', 'after-workflow-history-write']).optional(),
  /** Finished workflow runs one pass moves (each a page of nodes at a time). */
  ARCHIVER_WORKFLOW_BATCH_SIZE: env.positiveInt(10),
  /** Rows one MySQL delete of an archived run's nodes, dependencies or outputs takes. */
  ARCHIVER_WORKFLOW_DELETE_BATCH: env.positiveInt(5000),
});

export type ArchiverConfig = z.infer<typeof archiverConfigSchema>;

export function loadArchiverConfig(environment: Record<string, string | undefined>): ArchiverConfig {
  return loadConfig(archiverConfigSchema, environment);
}
