import { Counter, Gauge, type Registry } from 'prom-client';

export class ArchiverMetrics {
  readonly archived: Counter;
  readonly workflowsArchived: Counter;
  readonly lag: Gauge;
  readonly yielding: Gauge;

  constructor(registry: Registry) {
    this.archived = new Counter({
      name: 'dsched_archiver_jobs_archived_total',
      help: 'Jobs written to history and deleted from MySQL',
      registers: [registry],
    });
    this.workflowsArchived = new Counter({
      name: 'dsched_archiver_workflows_archived_total',
      help: 'Finished workflow runs written to history and deleted from MySQL',
      registers: [registry],
    });
    this.lag = new Gauge({
      name: 'dsched_archiver_lag_seconds',
      help: 'Age of the oldest job waiting for the archiver (since it became archivable)',
      registers: [registry],
    });
    this.yielding = new Gauge({
      name: 'dsched_archiver_yielding',
      help: '1 while the archiver defers its work to a ready backlog of deliveries',
      registers: [registry],
    });
  }
}
