import { Counter, type Registry } from 'prom-client';

export class ArchiverMetrics {
  readonly archived: Counter;

  constructor(registry: Registry) {
    this.archived = new Counter({
      name: 'dsched_archiver_jobs_archived_total',
      help: 'Jobs written to history and deleted from MySQL',
      registers: [registry],
    });
  }
}
