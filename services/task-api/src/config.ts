import {
  authThrottleConfigShape,
  baseConfigShape,
  cassandraConfigShape,
  env,
  loadConfig,
  mysqlConfigShape,
  secretsConfigShape,
} from '@dsched/runtime';
import { z } from 'zod';

export const taskApiConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  // Seals the signing secrets of the tenants it creates (and reseals old rows at start).
  ...secretsConfigShape,
  // The audit reads archived jobs from history.
  ...cassandraConfigShape,
  ...authThrottleConfigShape,
  HISTORY_TTL_DAYS: env.positiveInt(90),
  TASK_API_PORT: env.port(8080),
  TASK_API_HOST: z.string().default('0.0.0.0'),
  DSCHED_ADMIN_TOKEN: z
    .string({ error: 'is required: the operator token for /v1/admin' })
    .min(16, 'must be at least 16 characters'),
  /** Seconds an old API key keeps working after a rotation. */
  KEY_ROTATION_GRACE_S: env.nonNegativeInt(86_400),
  /** The largest POST /v1/workflows body; larger ones answer 413 before they are read. */
  WORKFLOW_MAX_BODY_BYTES: env.positiveInt(64 * 1024 * 1024),
  /**
   * The origin tenants reach this API at, for the signal URLs of wait nodes
   * (`https://dsched.example.com`); absent, the origin each request came to.
   */
  TASK_API_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) origin, e.g. https://dsched.example.com' })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** Web origins whose pages may call this API (the console's, job-api's `/ui`); none by default. */
  TASK_API_CORS_ORIGINS: env.origins(),
});

export type TaskApiConfig = z.infer<typeof taskApiConfigSchema>;

export function loadTaskApiConfig(environment: Record<string, string | undefined>): TaskApiConfig {
  return loadConfig(taskApiConfigSchema, environment);
}
