import type { CassandraClient } from '@dsched/cassandra/client';
import { archivedOccurrenceJobs } from '@dsched/cassandra/history-reads';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import { getTask, liveOccurrenceJobs, skipsInRange } from '@dsched/mysql/tasks';
import type { Counter } from 'prom-client';
import type { AuditSources } from '../core/audit.ts';

export function auditSources(
  pool: Pool,
  cassandra: CassandraClient,
  options: { historyRetentionDays: number; missing: Counter },
): AuditSources {
  return {
    task: (tenantId, id) => getTask(pool, tenantId, id),
    liveJobs: (taskId, range) => liveOccurrenceJobs(pool, taskId, range),
    archivedJobs: (tenantId, taskId, range) =>
      archivedOccurrenceJobs(cassandra, { tenantId, taskId, from: range.from, to: range.to }),
    skips: (taskId, range) => skipsInRange(pool, taskId, range),
    now: () => databaseNow(pool),
    historyRetentionDays: options.historyRetentionDays,
    onMissing: (n) => options.missing.inc(n),
  };
}
