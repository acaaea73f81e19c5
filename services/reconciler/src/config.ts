import { baseConfigShape, env, loadConfig, mysqlConfigShape } from '@dsched/runtime';
import { z } from 'zod';

export const reconcilerConfigSchema = z.object({
  ...baseConfigShape,
  ...mysqlConfigShape,
  METRICS_PORT: env.port(9103),
  RECONCILER_INTERVAL_MS: env.positiveInt(2000),
  RECONCILER_BATCH_SIZE: env.positiveInt(500),
});

export type ReconcilerConfig = z.infer<typeof reconcilerConfigSchema>;

export function loadReconcilerConfig(environment: Record<string, string | undefined>): ReconcilerConfig {
  return loadConfig(reconcilerConfigSchema, environment);
}
