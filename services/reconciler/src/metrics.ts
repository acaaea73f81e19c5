import { dlqAdditionsCounter, tasksPausedAfterFailuresCounter } from '@dsched/runtime';
import { Counter, Gauge, type Registry } from 'prom-client';

export type ReleaseReason = 'lease_expired' | 'deadline' | 'executor_gone';

export class ReconcilerMetrics {
  readonly released: Counter<'reason'>;
  readonly dlqAdditions: Counter;
  readonly readyBacklog: Gauge<'lane'>;
  readonly dlqSize: Gauge;
  readonly tasksPausedAfterFailures: Counter;
  readonly workflowsRepaired: Counter<'repair'>;
  readonly scheduledRunsStarted: Counter;
  readonly runs: Gauge<'state'>;
  readonly walkQueue: Gauge;
  readonly operationBatches: Counter<'action'>;
  readonly operationChanges: Counter<'action'>;
  readonly operationsFinished: Counter<'action' | 'state'>;

  constructor(registry: Registry) {
    this.released = new Counter({
      name: 'dsched_reconciler_released_total',
      help: 'Claims the reconciler took back (to pending or the DLQ), by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.dlqAdditions = dlqAdditionsCounter([registry]);
    this.readyBacklog = new Gauge({
      name: 'dsched_ready_backlog',
      help: 'Pending jobs already due, by lane',
      labelNames: ['lane'],
      registers: [registry],
    });
    this.tasksPausedAfterFailures = tasksPausedAfterFailuresCounter([registry]);
    this.dlqSize = new Gauge({
      name: 'dsched_dlq_size',
      help: 'Jobs in the dead-letter queue',
      registers: [registry],
    });
    this.workflowsRepaired = new Counter({
      name: 'dsched_workflow_repairs_total',
      help: 'What the workflow sweep did that no walk had: runs finished, node outcomes applied, runs failed at their deadline',
      labelNames: ['repair'],
      registers: [registry],
    });
    this.runs = new Gauge({
      name: 'dsched_workflow_runs',
      help: 'Workflow runs still running, by state: running, or paused (dispatch held)',
      labelNames: ['state'],
      registers: [registry],
    });
    this.walkQueue = new Gauge({
      name: 'dsched_workflow_walk_queue',
      help: 'Finished workflow nodes whose children are not all told yet: past a walk’s budget or bound, or wide parents between slices',
      registers: [registry],
    });
    this.operationBatches = new Counter({
      name: 'dsched_operation_batches_total',
      help: 'Batches of bulk operations carried out, by action',
      labelNames: ['action'],
      registers: [registry],
    });
    this.operationChanges = new Counter({
      name: 'dsched_operation_changes_total',
      help: 'Jobs and tasks bulk operations changed, by action',
      labelNames: ['action'],
      registers: [registry],
    });
    this.operationsFinished = new Counter({
      name: 'dsched_operations_finished_total',
      help: 'Bulk operations that ended, by action and final state (succeeded, failed, cancelled)',
      labelNames: ['action', 'state'],
      registers: [registry],
    });
    this.scheduledRunsStarted = new Counter({
      name: 'dsched_workflow_scheduled_runs_started_total',
      help: 'Workflow runs started by a workflow task’s occurrence',
      registers: [registry],
    });
  }

  count(reason: ReleaseReason, r: { released: number; dead: number; pausedTasks?: number }): void {
    this.released.inc({ reason }, r.released + r.dead);
    this.dlqAdditions.inc(r.dead);
    this.tasksPausedAfterFailures.inc(r.pausedTasks ?? 0);
  }
}
