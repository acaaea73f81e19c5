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
  /**
   * task-api's URL as a browser reaches it, handed to the console under /ui (task-api must list
   * this service's origin in TASK_API_CORS_ORIGINS). Unset: the console asks for it at sign-in.
   */
  CONSOLE_TASK_API_URL: env.optionalHttpUrl(),
  /**
   * Where the console links a run's trace: a URL with `{traceId}` in it, e.g. a Jaeger's
   * http://127.0.0.1:16686/trace/{traceId} or a Tempo's (docs/tracing.md). Unset: the id, unlinked.
   */
  CONSOLE_TRACE_URL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine(
      (v) => v === undefined || (/^https?:\/\//.test(v) && v.includes('{traceId}')),
      'must be an http(s):// URL with {traceId} in it',
    ),
});

export type JobApiConfig = z.infer<typeof jobApiConfigSchema>;

export function loadJobApiConfig(environment: Record<string, string | undefined>): JobApiConfig {
  return loadConfig(jobApiConfigSchema, environment);
}
