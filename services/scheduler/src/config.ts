import { baseConfigShape, env, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

export const schedulerConfigSchema = z
  .object({
    ...baseConfigShape,
    ...mysqlConfigShape,
    METRICS_PORT: env.port(9101),
    /** Occurrences due within this many seconds are materialised ahead of time. */
    SCHEDULER_LOOKAHEAD_S: env.nonNegativeInt(10),
    SCHEDULER_TICK_MS: env.positiveInt(1000),
    /** Due tasks per batch (one transaction). */
    SCHEDULER_BATCH_SIZE: env.positiveInt(1000),
    /** Job rows per insert statement. */
    SCHEDULER_MAX_JOBS_PER_BATCH: env.positiveInt(5000),
    SCHEDULER_MAX_BATCHES_PER_TICK: env.positiveInt(100),
    /** Occurrences of one task per pass within the lookahead (a once-a-second task needs ~lookahead). */
    SCHEDULER_MAX_OCCURRENCES_PER_TASK: env.positiveInt(100),
    /** A partition lease lives this long unless renewed (every TTL/3). */
    SCHEDULER_LEASE_TTL_MS: z.coerce.number().int().min(1000).default(10_000),
    /** How often a replica renews, rebalances and looks for expired leases to take over. */
    SCHEDULER_LEASE_CHECK_MS: env.positiveInt(1000),
    /**
     * TEST-ONLY. `off` materialises every partition with no lease: two replicas then race over
     * the same rows, which the tests use to show that the row lock and the unique key alone keep
     * one job per occurrence. Never in production: it gives up invariant 6.
     */
    SCHEDULER_LEASES: z.enum(['on', 'off']).default('on'),
    /** An occurrence more than this late (scheduler downtime) is missed: its misfire policy applies. */
    SCHEDULER_MISFIRE_THRESHOLD_S: env.nonNegativeInt(60),
    /** `fire_all` runs at most this many missed occurrences of a task. */
    SCHEDULER_MISFIRE_MAX_CATCHUP: env.positiveInt(100),
  })
  .refine((c) => c.SCHEDULER_LEASE_CHECK_MS * 2 <= c.SCHEDULER_LEASE_TTL_MS, {
    path: ['SCHEDULER_LEASE_CHECK_MS'],
    message: 'must be at most half of SCHEDULER_LEASE_TTL_MS',
  })
  // reverse_bits gives each of 2^k shards P/2^k partitions only when P is a power of two (docs/sharding.md).
  .refine(
    (c) => c.MYSQL_TOPOLOGY !== 'vitess' || (c.SCHEDULER_PARTITIONS & (c.SCHEDULER_PARTITIONS - 1)) === 0,
    {
      path: ['SCHEDULER_PARTITIONS'],
      message: 'must be a power of two when MYSQL_TOPOLOGY=vitess',
    },
  )
  // A batch reads its leases on a connection of its own beside its transaction (D62), while the
  // lease keeper renews on a third: fewer would leave a batch waiting for a connection it holds.
  .refine((c) => c.DATABASE_POOL_SIZE >= 3, {
    path: ['DATABASE_POOL_SIZE'],
    message: "must be at least 3: a batch's lease check, its transaction and the lease renewal",
  });

export type SchedulerConfig = z.infer<typeof schedulerConfigSchema>;

export function loadSchedulerConfig(environment: Record<string, string | undefined>): SchedulerConfig {
  return loadConfig(schedulerConfigSchema, environment);
}
