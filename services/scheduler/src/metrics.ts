import { LATENCY_BUCKETS_S } from '@dsched/runtime';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export class SchedulerMetrics {
  readonly tickDuration: Histogram;
  readonly dueSetSize: Gauge;
  readonly jobsMaterialised: Counter;

  constructor(registry: Registry) {
    this.tickDuration = new Histogram({
      name: 'dsched_scheduler_tick_seconds',
      help: 'Duration of one scheduler tick (all batches)',
      buckets: LATENCY_BUCKETS_S,
      registers: [registry],
    });
    this.dueSetSize = new Gauge({
      name: 'dsched_scheduler_due_tasks',
      help: 'Tasks found due in the last tick',
      registers: [registry],
    });
    this.jobsMaterialised = new Counter({
      name: 'dsched_scheduler_jobs_materialised_total',
      help: 'Job rows inserted by the scheduler',
      registers: [registry],
    });
  }
}
