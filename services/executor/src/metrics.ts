import { LATENCY_BUCKETS_S } from '@dsched/runtime';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export class ExecutorMetrics {
  readonly scheduleLag: Histogram<'priority'>;
  readonly inFlight: Gauge<'lane'>;
  readonly claimBatch: Histogram<'lane'>;
  readonly outcomes: Counter<'outcome'>;
  readonly staleResults: Counter;
  readonly attemptDuration: Histogram<'lane'>;

  constructor(registry: Registry) {
    this.scheduleLag = new Histogram({
      name: 'dsched_schedule_lag_seconds',
      help: 'Start of an attempt minus its scheduled time',
      labelNames: ['priority'],
      buckets: LATENCY_BUCKETS_S,
      registers: [registry],
    });
    this.inFlight = new Gauge({
      name: 'dsched_executor_in_flight',
      help: 'Calls in flight by lane',
      labelNames: ['lane'],
      registers: [registry],
    });
    this.claimBatch = new Histogram({
      name: 'dsched_executor_claim_batch_size',
      help: 'Jobs claimed per claim query',
      labelNames: ['lane'],
      buckets: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers: [registry],
    });
    this.outcomes = new Counter({
      name: 'dsched_job_outcomes_total',
      help: 'Attempt outcomes by class',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.staleResults = new Counter({
      name: 'dsched_stale_results_total',
      help: 'Results dropped because their claim (attempt) was no longer current',
      registers: [registry],
    });
    this.attemptDuration = new Histogram({
      name: 'dsched_attempt_duration_seconds',
      help: 'Duration of one HTTP attempt',
      labelNames: ['lane'],
      buckets: LATENCY_BUCKETS_S,
      registers: [registry],
    });
  }
}
