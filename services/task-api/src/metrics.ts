import { Counter, type Registry } from 'prom-client';

export class TaskApiMetrics {
  readonly auditMissing: Counter;

  constructor(registry: Registry) {
    this.auditMissing = new Counter({
      name: 'dsched_audit_missing_total',
      help: 'Occurrences an audit found missing: implied by the schedule, passed, never run (a bug)',
      registers: [registry],
    });
  }
}
