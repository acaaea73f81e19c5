import { isIP } from 'node:net';
import { parseSecretsKeyring } from '@dsched/domain';
import { z } from 'zod';
import { tracingConfigShape } from './tracing-config.ts';

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
  /** Comma-separated web origins (`http://host:port`, no path), e.g. for CORS; empty by default. */
  origins: () =>
    z
      .string()
      .default('')
      .transform((v, ctx) => {
        const list = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const item of list) {
          if (!URL.canParse(item) || new URL(item).origin !== item) {
            ctx.addIssue({
              code: 'custom',
              message: `"${item}" is not an origin (scheme://host[:port], no path)`,
            });
            return z.NEVER;
          }
        }
        return list;
      }),
  /** An optional http(s) URL. */
  optionalHttpUrl: () =>
    z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || v === '' || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
        'must be an http:// or https:// URL',
      )
      .transform((v) => (v ? v.replace(/\/+$/, '') : undefined)),
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
  /** OpenTelemetry's standard variables (tracing-config.ts): tracing is on when an endpoint is set. */
  ...tracingConfigShape,
};

export const mysqlConfigShape = {
  DATABASE_URL: env.mysqlUrl(),
  DATABASE_POOL_SIZE: env.positiveInt(10),
  /**
   * `vitess`: DATABASE_URL is a vtgate (database `@primary`: no default keyspace, docs/sharding.md);
   * the migrations go through it. `single` (default): one MySQL or MariaDB server.
   */
  MYSQL_TOPOLOGY: z.enum(['single', 'vitess']).default('single'),
  /**
   * Tasks hash into this many partitions, the shard key of every hot row (docs/sharding.md): the
   * same in every service, fixed once data exists, a power of two on Vitess.
   */
  SCHEDULER_PARTITIONS: env.positiveInt(64),
  /** The sharded keyspace on Vitess, whose shards group the partitions (`SHOW VITESS_SHARDS`). */
  VITESS_KEYSPACE: z.string().min(1).max(64).default('dsched'),
};

/**
 * Consistency levels history may be read or written at (docs/history.md, D40). ANY is not one: a
 * write acknowledged as a hint alone is on no replica, and the archiver deletes the job from MySQL
 * once its history write is acknowledged. SERIAL and LOCAL_SERIAL are for lightweight transactions.
 */
export const CASSANDRA_WRITE_CONSISTENCIES = [
  'ONE',
  'TWO',
  'THREE',
  'QUORUM',
  'LOCAL_ONE',
  'LOCAL_QUORUM',
  'EACH_QUORUM',
  'ALL',
] as const;
/** Reads stay in one data centre or a count of replicas: EACH_QUORUM is for writes. */
export const CASSANDRA_READ_CONSISTENCIES = CASSANDRA_WRITE_CONSISTENCIES.filter((l) => l !== 'EACH_QUORUM');

const consistency = (levels: readonly string[]) =>
  z
    .enum(levels as [string, ...string[]], { error: `must be one of ${levels.join(', ')}` })
    .default('LOCAL_QUORUM');

export const cassandraConfigShape = {
  CASSANDRA_CONTACT_POINTS: env.csv('127.0.0.1:9042'),
  CASSANDRA_LOCAL_DC: z.string().min(1).default('datacenter1'),
  CASSANDRA_KEYSPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,47}$/, 'must be a Cassandra keyspace name')
    .default('dsched'),
  CASSANDRA_USERNAME: z.string().optional(),
  CASSANDRA_PASSWORD: z.string().optional(),
  /**
   * Replicas that must acknowledge a history write before the archiver deletes the job from MySQL;
   * checked at start against the keyspace's replication (checkConsistency of @dsched/cassandra).
   */
  CASSANDRA_WRITE_CONSISTENCY: consistency(CASSANDRA_WRITE_CONSISTENCIES),
  /** Replicas that must answer a history read (job-api, task-api). */
  CASSANDRA_READ_CONSISTENCY: consistency(CASSANDRA_READ_CONSISTENCIES),
};

/**
 * The keyring that seals tenant signing secrets at rest (packages/domain/src/crypto/secret-envelope.ts):
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

/**
 * Which peers may say who the client is (`X-Forwarded-For`), so that the throttle of failed
 * authentications counts the client behind an ingress rather than the ingress: unset (trust
 * nobody: the peer's address is the client's), a hop count (`1`: the nearest proxy), or a
 * comma-separated list of addresses and CIDRs (`10.0.0.0/8,127.0.0.1`). Never `true`: trusting
 * every peer would let any client pick the address it is counted under.
 */
export type TrustProxy = false | number | string[];

const trustProxy = () =>
  z
    .string()
    .default('')
    .transform((v, ctx): TrustProxy => {
      const text = v.trim();
      if (text === '' || text === 'false') return false;
      if (/^\d+$/.test(text)) {
        const hops = Number(text);
        if (hops >= 1 && hops <= 16) return hops;
        ctx.addIssue({ code: 'custom', message: 'a hop count must be 1–16' });
        return z.NEVER;
      }
      const entries = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = entries.filter((e) => !isAddressOrCidr(e));
      if (bad.length === 0) return entries;
      ctx.addIssue({
        code: 'custom',
        message: `not an address or CIDR: ${bad.join(', ')} (give a hop count, or addresses and CIDRs separated by commas)`,
      });
      return z.NEVER;
    });

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** The APIs' throttle of failed authentications per address (auth-throttle.ts). */
export const authThrottleConfigShape = {
  /** Failed authentications (401, 403) one address may make within the window before 429s. */
  AUTH_FAILURE_LIMIT: env.positiveInt(20),
  AUTH_FAILURE_WINDOW_S: env.positiveInt(60),
  TRUST_PROXY: trustProxy(),
};
