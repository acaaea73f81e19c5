import { DEFAULT_NODE_OUTPUT_BYTES, MAX_BODY_BYTES } from '@dsched/domain';
import { baseConfigShape, env, loadConfig, mysqlConfigShape, secretsConfigShape } from '@dsched/runtime';
import { z } from 'zod';
import { type AllowList, parseAllowList } from './adapters/target-policy.ts';

export const executorConfigSchema = z
  .object({
    ...baseConfigShape,
    ...mysqlConfigShape,
    // Opens the tenants' signing secrets, which sign every call.
    ...secretsConfigShape,
    METRICS_PORT: env.port(9102),
    /** How long a claim's read of a tenant (secret, limit, weight) is kept: a changed limit applies within it. */
    EXECUTOR_TENANT_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    /** Calls each lane runs at once; a lane at 0 is not run by this process. */
    EXECUTOR_CRITICAL_CONCURRENCY: env.nonNegativeInt(128),
    EXECUTOR_DEFAULT_CONCURRENCY: env.nonNegativeInt(256),
    EXECUTOR_LONG_CONCURRENCY: env.nonNegativeInt(32),
    EXECUTOR_POLL_MS: env.positiveInt(200),
    EXECUTOR_CRITICAL_POLL_MS: env.positiveInt(50),
    /**
     * The critical lane claims jobs up to this long before they are due and starts each call at its
     * due instant, so a critical call is not late by a claim in a busy database (docs/executor.md).
     * 0: claim only due jobs.
     */
    EXECUTOR_CRITICAL_LEAD_MS: z.coerce.number().int().min(0).max(5000).default(500),
    /** The most jobs one claim query takes. */
    EXECUTOR_MAX_CLAIM_BATCH: z.coerce.number().int().min(1).max(1000).default(100),
    /**
     * Claims the default lane holds beyond its slots, each waiting for a slot, so a slot that frees
     * starts its next call at once instead of after a claim (docs/executor.md, D36). 0 (default):
     * claim only into free slots. Measured to raise a FIFO fleet's capacity by about a quarter; with
     * fair share on, beside a flood, it lowered the share of that capacity served (D36).
     */
    EXECUTOR_CLAIM_AHEAD: z.coerce.number().int().min(0).max(10_000).default(0),
    /** How long a claim stays valid without renewal; renewed every third of it. */
    EXECUTOR_LEASE_S: z.coerce.number().int().min(3).max(3600).default(120),
    /**
     * Weighted fair share between tenants in the default and long lanes: claims by priority, then
     * start tag (docs/fair-share.md). false: by priority, then due time (FIFO; the critical lane
     * always is). Every executor of a fleet should say the same.
     */
    EXECUTOR_FAIR_SHARE: env.bool(true),
    /**
     * How often the calls in flight are checked for a requested cancel (one statement per pass), so
     * a running call is aborted within about this long of its cancel (docs/executor.md).
     */
    EXECUTOR_CANCEL_POLL_MS: z.coerce.number().int().min(100).max(10_000).default(1000),
    /** How far back a job of a tenant at its concurrency limit moves in the claim order. */
    EXECUTOR_TENANT_DEFER_MS: env.positiveInt(1000),
    /** A job that answered 202 must heartbeat through job-api within this (each heartbeat renews it)… */
    EXECUTOR_ASYNC_HEARTBEAT_S: env.positiveInt(300),
    /** …and complete within this, heartbeats or not. */
    EXECUTOR_ASYNC_DEADLINE_S: env.positiveInt(3600),
    EXECUTOR_MAX_REQUEST_BYTES: env.positiveInt(MAX_BODY_BYTES),
    EXECUTOR_MAX_RESPONSE_BYTES: env.positiveInt(64 * 1024),
    /**
     * A workflow node's output: the first this many bytes of its response body, kept in
     * workflow_node_outputs and passed to children that ask for their inputs (docs/workflows.md).
     * At most 16 MiB: a batch of outputs is written in statements of a few MiB.
     */
    EXECUTOR_MAX_OUTPUT_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(16 * 1024 * 1024)
      .default(DEFAULT_NODE_OUTPUT_BYTES),
    /** task-api as targets reach it: a fan-in whose parents' outputs do not fit is sent this URL's paged list of them. */
    EXECUTOR_TASK_API_URL: z
      .string()
      .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http(s):// URL')
      .default('http://127.0.0.1:8080'),
    EXECUTOR_CONNECT_TIMEOUT_MS: env.positiveInt(10_000),
    EXECUTOR_CONNECTIONS_PER_ORIGIN: env.positiveInt(256),
    EXECUTOR_OUTCOME_BATCH: z.coerce.number().int().min(1).max(1000).default(200),
    /**
     * Comma-separated CIDRs, addresses, host names or *.suffixes a call may reach even though they
     * resolve to loopback, private or link-local addresses (docs/ssrf.md). Empty: none.
     */
    EXECUTOR_ALLOWED_TARGETS: env.csv('').transform((entries, ctx): AllowList => {
      try {
        return parseAllowList(entries);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  })
  .refine(
    (c) => c.MYSQL_TOPOLOGY !== 'vitess' || (c.SCHEDULER_PARTITIONS & (c.SCHEDULER_PARTITIONS - 1)) === 0,
    {
      path: ['SCHEDULER_PARTITIONS'],
      message: 'must be a power of two with MYSQL_TOPOLOGY=vitess (docs/sharding.md)',
    },
  )
  // Each lane claims on its own; a claim of a tenant with a limit or a flow key holds two
  // connections at once (the shard's transaction and the global step's: docs/sharding.md), and the
  // outcomes and the wake loop need one each besides. A smaller pool can leave every claim holding
  // its first connection while waiting for a second.
  .superRefine((c, ctx) => {
    const needed = 2 * activeLanes(c) + 2;
    if (c.DATABASE_POOL_SIZE < needed) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_POOL_SIZE'],
        message: `must be at least ${needed} for this executor's ${activeLanes(c)} lanes (two connections a claim, docs/operations.md)`,
      });
    }
  });

function activeLanes(c: {
  EXECUTOR_CRITICAL_CONCURRENCY: number;
  EXECUTOR_DEFAULT_CONCURRENCY: number;
  EXECUTOR_LONG_CONCURRENCY: number;
}): number {
  return [
    c.EXECUTOR_CRITICAL_CONCURRENCY,
    c.EXECUTOR_DEFAULT_CONCURRENCY,
    c.EXECUTOR_LONG_CONCURRENCY,
  ].filter((n) => n > 0).length;
}

export type ExecutorConfig = z.infer<typeof executorConfigSchema>;

export function loadExecutorConfig(environment: Record<string, string | undefined>): ExecutorConfig {
  return loadConfig(executorConfigSchema, environment);
}
