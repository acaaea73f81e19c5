import { collectDefaultMetrics, Registry } from 'prom-client';

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
