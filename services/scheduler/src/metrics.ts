import type { SkipReason } from '@dsched/domain';
import { LATENCY_BUCKETS_S } from '@dsched/runtime';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

// Names and meanings are fixed by docs/metrics.md (dashboards and alerts query them).
export class SchedulerMetrics {
  readonly tickDuration: Histogram;
  readonly dueTasks: Gauge;
  readonly jobsMaterialised: Counter;
  readonly partitionsHeld: Gauge;
  readonly leaseRenewFailures: Counter;
  readonly lag: Histogram;
  readonly skipped: Counter<'reason'>;

  constructor(registry: Registry) {
    this.tickDuration = new Histogram({
      name: 'dsched_scheduler_tick_seconds',
      help: 'Duration of one scheduler tick (all batches)',
      buckets: LATENCY_BUCKETS_S,
      registers: [registry],
    });
    this.dueTasks = new Gauge({
      name: 'dsched_scheduler_due_tasks',
      help: 'Tasks found due in the last tick',
      registers: [registry],
    });
    this.jobsMaterialised = new Counter({
      name: 'dsched_scheduler_jobs_materialised_total',
      help: 'Job rows inserted by the scheduler',
      registers: [registry],
    });
    this.partitionsHeld = new Gauge({
      name: 'dsched_scheduler_partitions_held',
      help: 'Partitions this replica holds a lease on',
      registers: [registry],
    });
    this.leaseRenewFailures = new Counter({
      name: 'dsched_scheduler_lease_renew_failures_total',
      help: 'Partition leases this replica failed to renew (found expired or taken over)',
      registers: [registry],
    });
    this.lag = new Histogram({
      name: 'dsched_scheduler_lag_seconds',
      help: 'Materialisation time minus scheduled_for, by the database clock (0 when ahead)',
      buckets: LATENCY_BUCKETS_S,
      registers: [registry],
    });
    this.skipped = new Counter({
      name: 'dsched_scheduler_occurrences_skipped_total',
      help: 'Occurrence ranges skipped on purpose (misfire or overlap policy)',
      labelNames: ['reason'],
      registers: [registry],
    });
  }

  recordSkips(skipped: Partial<Record<SkipReason, number>>): void {
    for (const [reason, n] of Object.entries(skipped)) this.skipped.inc({ reason }, n);
  }
}
