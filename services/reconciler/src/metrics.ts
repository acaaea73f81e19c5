import { Counter, type Registry } from 'prom-client';

export class ReconcilerMetrics {
  readonly released: Counter;

  constructor(registry: Registry) {
    this.released = new Counter({
      name: 'dsched_reconciler_released_total',
      help: 'Jobs whose expired claim was given back (to pending or the DLQ)',
      registers: [registry],
    });
  }
}
