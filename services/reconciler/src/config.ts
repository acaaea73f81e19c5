import { baseConfigShape, env, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

export const reconcilerConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  METRICS_PORT: env.port(9103),
  RECONCILER_INTERVAL_MS: env.positiveInt(2000),
  RECONCILER_BATCH_SIZE: env.positiveInt(500),
  /** How often the workflow sweep takes a page of running workflows (finish, repair, deadlines). */
  RECONCILER_WORKFLOW_INTERVAL_MS: env.positiveInt(2000),
  /** Running workflows one sweep pass takes. */
  RECONCILER_WORKFLOW_BATCH_SIZE: env.positiveInt(100),
  /** How often an idle reconciler looks for a bulk operation to carry out (docs/bulk-operations.md). */
  RECONCILER_OPERATION_INTERVAL_MS: env.positiveInt(1000),
  /** Jobs (or tasks) one batch of a bulk operation changes, in one transaction. */
  RECONCILER_OPERATION_BATCH_SIZE: env.positiveInt(500),
  /** How long a bulk operation's lease lasts without a batch: a dead reconciler's is taken after it. */
  RECONCILER_OPERATION_LEASE_MS: env.positiveInt(15_000),
  /** A wait after each batch of a bulk operation, leaving the database to the claim path (0: none). */
  RECONCILER_OPERATION_PAUSE_MS: env.nonNegativeInt(0),
  /**
   * How often the task quota is recounted (each tenant's `task_count` against the tasks and runs it
   * holds, counted shard by shard; docs/quotas.md, D63): a crash between a reservation and its task,
   * or between a delete and its give-back, leaves a count high until then. Also once at start.
   */
  RECONCILER_TASK_RECOUNT_INTERVAL_MS: env.positiveInt(3_600_000),
  /**
   * The recount's wait between its two counts of a page of tenants: a create or a delete slower than
   * this between its two steps can lose its place (the count one low, docs/quotas.md).
   */
  RECONCILER_TASK_RECOUNT_SETTLE_MS: env.positiveInt(30_000),
  /** How often the ready-backlog and DLQ-size gauges are refreshed (each is one indexed count). */
  RECONCILER_GAUGES_INTERVAL_MS: env.positiveInt(10_000),
  /**
   * The Kubernetes accelerator: `auto` turns it on inside a cluster (or with a kubeconfig),
   * `on` requires it, `off` leaves the lease path alone.
   */
  RECONCILER_KUBERNETES: z.enum(['auto', 'on', 'off']).default('auto'),
  /** A kubeconfig file to use instead of the in-cluster service account. */
  RECONCILER_KUBECONFIG: z.string().min(1).optional(),
  /** The namespace of the executor pods (default: the reconciler's own, or `default`). */
  RECONCILER_KUBERNETES_NAMESPACE: z.string().min(1).max(63).optional(),
  RECONCILER_KUBERNETES_INTERVAL_MS: env.positiveInt(5000),
});

export type ReconcilerConfig = z.infer<typeof reconcilerConfigSchema>;

export function loadReconcilerConfig(environment: Record<string, string | undefined>): ReconcilerConfig {
  return loadConfig(reconcilerConfigSchema, environment);
}
