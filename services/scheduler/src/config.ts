import { baseConfigShape, env, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

export const schedulerConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  METRICS_PORT: env.port(9101),
  SCHEDULER_PARTITIONS: env.positiveInt(64),
  /** Occurrences due within this many seconds are materialised ahead of time. */
  SCHEDULER_LOOKAHEAD_S: env.nonNegativeInt(10),
  SCHEDULER_TICK_MS: env.positiveInt(1000),
  SCHEDULER_BATCH_SIZE: env.positiveInt(1000),
});

export type SchedulerConfig = z.infer<typeof schedulerConfigSchema>;

export function loadSchedulerConfig(environment: Record<string, string | undefined>): SchedulerConfig {
  return loadConfig(schedulerConfigSchema, environment);
}
