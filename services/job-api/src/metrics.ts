import { Counter, type Registry } from 'prom-client';

// job-api's own metrics; names as in docs/metrics.md (shared with the executor).
export class JobApiMetrics {
  readonly staleResults: Counter;
  readonly dlqAdditions: Counter;

  constructor(registry: Registry) {
    this.staleResults = new Counter({
      name: 'dsched_stale_results_total',
      help: 'Results dropped because their claim (attempt) was no longer current',
      registers: [registry],
    });
    this.dlqAdditions = new Counter({
      name: 'dsched_dlq_additions_total',
      help: 'Jobs moved to dead',
      registers: [registry],
    });
  }
}
