import { parseSecretsKeyring } from '@dsched/domain';
import { z } from 'zod';

// Configuration comes from the environment, validated once in main(): a missing or bad value
// stops the service at start with a message that names the variable.

export class ConfigError extends Error {
  readonly variables: string[];
  constructor(problems: { variable: string; issue: string }[]) {
    super(`invalid configuration: ${problems.map((p) => `${p.variable}: ${p.issue}`).join('; ')}`);
    this.name = 'ConfigError';
    this.variables = problems.map((p) => p.variable);
  }
}

export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: issue.path.map(String).join('.') || '(environment)',
      issue: issue.message,
    })),
  );
}

/** Reusable variable shapes. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  nonNegativeInt: (fallback: number) => z.coerce.number().int().min(0).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  mysqlUrl: () =>
    z
      .string({ error: 'is required (mysql://user:password@host:port/database)' })
      .refine((v) => URL.canParse(v) && new URL(v).protocol === 'mysql:', 'must be a mysql:// URL')
      .refine((v) => URL.canParse(v) && new URL(v).pathname.length > 1, 'must name a database'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  csv: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
};

/** Variables every service reads. */
export const baseConfigShape = {
  LOG_LEVEL: env.logLevel(),
  /** Milliseconds SIGTERM waits for in-flight work before giving it back (a hard exit follows 5 s later). */
  SHUTDOWN_GRACE_MS: env.positiveInt(25_000),
  INSTANCE_ID: z.string().min(1).max(100).optional(),
};

export const mysqlConfigShape = {
  DATABASE_URL: env.mysqlUrl(),
  DATABASE_POOL_SIZE: env.positiveInt(10),
};

export const cassandraConfigShape = {
  CASSANDRA_CONTACT_POINTS: env.csv('127.0.0.1:9042'),
  CASSANDRA_LOCAL_DC: z.string().min(1).default('datacenter1'),
  CASSANDRA_KEYSPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,47}$/, 'must be a Cassandra keyspace name')
    .default('dsched'),
  CASSANDRA_USERNAME: z.string().optional(),
  CASSANDRA_PASSWORD: z.string().optional(),
};

/**
 * The keyring that seals tenant signing secrets at rest (packages/domain/src/secret-envelope.ts):
 * a base64 32-byte key, or `id:key,id:key` with the first sealing new secrets. Required by the
 * services that write (task-api) or read (executor) them.
 */
export const secretsConfigShape = {
  DSCHED_SECRETS_KEY: z
    .string({
      error: 'is required: the key that seals tenant signing secrets (base64 of 32 bytes, or id:key,id:key)',
    })
    .transform((text, ctx) => {
      try {
        return parseSecretsKeyring(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
};

/** The APIs' throttle of failed authentications per address (auth-throttle.ts). */
export const authThrottleConfigShape = {
  /** Failed authentications (401, 403) one address may make within the window before 429s. */
  AUTH_FAILURE_LIMIT: env.positiveInt(20),
  AUTH_FAILURE_WINDOW_S: env.positiveInt(60),
};
