import { baseConfigShape, env, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

export const executorConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  METRICS_PORT: env.port(9102),
  EXECUTOR_CRITICAL_CONCURRENCY: env.nonNegativeInt(32),
  EXECUTOR_DEFAULT_CONCURRENCY: env.nonNegativeInt(256),
  EXECUTOR_LONG_CONCURRENCY: env.nonNegativeInt(32),
  EXECUTOR_POLL_MS: env.positiveInt(200),
  EXECUTOR_CRITICAL_POLL_MS: env.positiveInt(50),
  /** How long a claim stays valid without renewal. */
  EXECUTOR_LEASE_S: env.positiveInt(120),
  EXECUTOR_MAX_RESPONSE_BYTES: env.positiveInt(64 * 1024),
});

export type ExecutorConfig = z.infer<typeof executorConfigSchema>;

export function loadExecutorConfig(environment: Record<string, string | undefined>): ExecutorConfig {
  return loadConfig(executorConfigSchema, environment);
}
