import { dlqAdditionsCounter, staleResultsCounter } from '@dsched/runtime';
import type { Counter, Registry } from 'prom-client';

// job-api's own metrics; names as in docs/metrics.md (shared with the executor).
export class JobApiMetrics {
  readonly staleResults: Counter;
  readonly dlqAdditions: Counter;

  constructor(registry: Registry) {
    this.staleResults = staleResultsCounter([registry]);
    this.dlqAdditions = dlqAdditionsCounter([registry]);
  }
}
