import { Counter, collectDefaultMetrics, Registry } from 'prom-client';

// One registry per process, injected into each component's metrics class.
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Buckets for lateness and latency, from 1 ms to 5 min. */
export const LATENCY_BUCKETS_S = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
];

// Metrics more than one service counts into: one definition each, so the name and help never
// drift apart between the services that emit them (docs/metrics.md).

/** Jobs moved to dead (executor, job-api on a failed completion, reconciler). */
export function dlqAdditionsCounter(registers: Registry[]): Counter {
  return new Counter({ name: 'dsched_dlq_additions_total', help: 'Jobs moved to dead', registers });
}

/** Results dropped because their fence no longer matched (executor, job-api callbacks). */
export function staleResultsCounter(registers: Registry[]): Counter {
  return new Counter({
    name: 'dsched_stale_results_total',
    help: 'Results dropped because their claim (attempt) was no longer current',
    registers,
  });
}

/** Tasks paused on reaching pauseAfterFailures (executor outcomes, reconciler dead-lettering). */
export function tasksPausedAfterFailuresCounter(registers: Registry[]): Counter {
  return new Counter({
    name: 'dsched_tasks_paused_after_failures_total',
    help: 'Tasks paused because they reached pauseAfterFailures dead occurrences in a row',
    registers,
  });
}
