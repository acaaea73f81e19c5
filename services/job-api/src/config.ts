import {
  authThrottleConfigShape,
  baseConfigShape,
  cassandraConfigShape,
  env,
  loadConfig,
  mysqlConfigShape,
} from '@dsched/runtime';
import { z } from 'zod';

export const jobApiConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  ...cassandraConfigShape,
  ...authThrottleConfigShape,
  JOB_API_PORT: env.port(8081),
  JOB_API_HOST: z.string().default('0.0.0.0'),
  /** How far each heartbeat of an asynchronous (202) job pushes its heartbeat timeout out (its deadline stays). */
  JOB_API_HEARTBEAT_EXTEND_S: env.positiveInt(300),
});

export type JobApiConfig = z.infer<typeof jobApiConfigSchema>;

export function loadJobApiConfig(environment: Record<string, string | undefined>): JobApiConfig {
  return loadConfig(jobApiConfigSchema, environment);
}
