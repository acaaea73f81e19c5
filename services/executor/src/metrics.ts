import { type Lane, PRIORITIES, type Priority } from '@dsched/domain';
import {
  dlqAdditionsCounter,
  LATENCY_BUCKETS_S,
  staleResultsCounter,
  tasksPausedAfterFailuresCounter,
} from '@dsched/runtime';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { type ClassShares, ShareMeter, TENANT_CLASSES, type TenantClass } from './core/share-meter.ts';

/** How long a window of the dispatch-share meter lasts (docs/fair-share.md). */
const SHARE_WINDOW_MS = 10_000;

/**
 * One lane's series, bound once: a labelled call (`observe({ lane }, v)`) hashes and validates its
 * label object on every call, which showed in the executor's per-job profile; a bound child does not.
 */
export interface LaneMetrics {
  claimQuery: Histogram.Internal<'lane'>;
  claimBatch: Histogram.Internal<'lane'>;
  attemptDuration: Histogram.Internal<'lane'>;
  scheduleLag: Record<Priority, Histogram.Internal<'priority'>>;
  /** The outcome counter's series by class, bound on first use. */
  outcome(outcomeClass: string): Counter.Internal;
}

// The executor's metrics; names and labels as in docs/metrics.md.
export class ExecutorMetrics {
  readonly scheduleLag: Histogram<'priority'>;
  readonly inFlight: Gauge<'lane'>;
  readonly claimBatch: Histogram<'lane'>;
  readonly claimQuery: Histogram<'lane'>;
  readonly outcomes: Counter<'outcome'>;
  readonly staleResults: Counter;
  readonly dlqAdditions: Counter;
  readonly attemptDuration: Histogram<'lane'>;
  readonly tenantDeferred: Counter;
  readonly flowDeferred: Counter;
  readonly targetsRefused: Counter;
  readonly claimsLost: Counter;
  readonly callbackJobs: Counter;
  readonly tasksPausedAfterFailures: Counter;
  readonly nodeCompletions: Counter<'outcome'>;
  readonly nodesWoken: Counter<'kind'>;
  readonly lateness: Histogram<'tenant_class'>;
  readonly dispatchShare: Gauge<'tenant_class'>;
  readonly weightShare: Gauge<'tenant_class'>;
  /** Ranks tenants into classes and feeds the share gauges; see share-meter.ts. */
  readonly shares: ShareMeter;
  readonly #latenessByClass: Record<TenantClass, Histogram.Internal<'tenant_class'>>;
  readonly nodeDispatchLatency: Histogram;

  readonly #outcomeSeries = new Map<string, Counter.Internal>();
  readonly #inFlightOf = new Map<Lane, () => number>();

  /**
   * The lane's calls in flight, read when the metrics are scraped: setting the gauge as each job
   * started and ended was two labelled writes per job on the hot path (docs/performance.md).
   */
  watchInFlight(lane: Lane, read: () => number): void {
    this.#inFlightOf.set(lane, read);
  }

  forLane(lane: Lane): LaneMetrics {
    return {
      claimQuery: this.claimQuery.labels(lane),
      claimBatch: this.claimBatch.labels(lane),
      attemptDuration: this.attemptDuration.labels(lane),
      scheduleLag: Object.fromEntries(PRIORITIES.map((p) => [p, this.scheduleLag.labels(p)])) as Record<
        Priority,
        Histogram.Internal<'priority'>
      >,
      outcome: (outcomeClass) => {
        let series = this.#outcomeSeries.get(outcomeClass);
        if (!series) {
          series = this.outcomes.labels(outcomeClass);
          this.#outcomeSeries.set(outcomeClass, series);
        }
        return series;
      },
    };
  }

  /** A job starts: its tenant's dispatch is counted and its lateness observed in its class. */
  jobStarted(tenantId: string, weight: number, latenessS: number): void {
    this.shares.record(tenantId, weight);
    this.#latenessByClass[this.shares.classOf(tenantId)].observe(latenessS);
  }

  constructor(registry: Registry, monotonicMs: () => number = () => performance.now()) {
    const registers = [registry];
    this.lateness = new Histogram({
      name: 'dsched_job_lateness_seconds',
      help: 'Start of an attempt minus its scheduled time, by tenant class (top1, top5, other by recent dispatch)',
      labelNames: ['tenant_class'],
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    this.dispatchShare = new Gauge({
      name: 'dsched_fair_dispatch_share',
      help: "A tenant class's share of the calls this executor dispatched in the last window",
      labelNames: ['tenant_class'],
      registers,
    });
    this.weightShare = new Gauge({
      name: 'dsched_fair_weight_share',
      help: "A tenant class's share of the weight of the tenants dispatched in the last window",
      labelNames: ['tenant_class'],
      registers,
    });
    this.#latenessByClass = Object.fromEntries(
      TENANT_CLASSES.map((c) => [c, this.lateness.labels(c)]),
    ) as Record<TenantClass, Histogram.Internal<'tenant_class'>>;
    for (const c of TENANT_CLASSES) {
      this.dispatchShare.labels(c).set(0);
      this.weightShare.labels(c).set(0);
    }
    this.shares = new ShareMeter(SHARE_WINDOW_MS, monotonicMs, (s: ClassShares) => {
      for (const c of TENANT_CLASSES) {
        this.dispatchShare.labels(c).set(s.dispatch[c]);
        this.weightShare.labels(c).set(s.weight[c]);
      }
    });
    this.scheduleLag = new Histogram({
      name: 'dsched_schedule_lag_seconds',
      help: 'Start of an attempt (its claim, on the database clock) minus its scheduled time',
      labelNames: ['priority'],
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    const inFlightOf = this.#inFlightOf;
    this.inFlight = new Gauge({
      name: 'dsched_executor_in_flight',
      help: 'Calls in flight by lane (claimed, outcome not yet written)',
      labelNames: ['lane'],
      registers,
      collect() {
        for (const [lane, read] of inFlightOf) this.labels(lane).set(read());
      },
    });
    this.claimBatch = new Histogram({
      name: 'dsched_executor_claim_batch_size',
      help: 'Jobs claimed per claim query',
      labelNames: ['lane'],
      buckets: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers,
    });
    this.claimQuery = new Histogram({
      name: 'dsched_executor_claim_query_seconds',
      help: 'Duration of one claim transaction',
      labelNames: ['lane'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.outcomes = new Counter({
      name: 'dsched_job_outcomes_total',
      help: 'Attempt outcomes by class',
      labelNames: ['outcome'],
      registers,
    });
    this.staleResults = staleResultsCounter(registers);
    this.dlqAdditions = dlqAdditionsCounter(registers);
    this.attemptDuration = new Histogram({
      name: 'dsched_attempt_duration_seconds',
      help: 'Duration of one HTTP attempt',
      labelNames: ['lane'],
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    this.tenantDeferred = new Counter({
      name: 'dsched_executor_tenant_deferred_total',
      help: 'Jobs moved back in the claim order because their tenant was at its concurrency limit',
      registers,
    });
    this.flowDeferred = new Counter({
      name: 'dsched_executor_flow_deferred_total',
      help: 'Jobs moved back in the claim order because their flow control key was at its parallelism or rate',
      registers,
    });
    this.targetsRefused = new Counter({
      name: 'dsched_executor_targets_refused_total',
      help: 'Calls refused by the SSRF guard (forbidden resolved address)',
      registers,
    });
    this.callbackJobs = new Counter({
      name: 'dsched_callback_jobs_created_total',
      help: 'Callback jobs made by final outcomes (one per reported job and attempt group)',
      registers,
    });
    this.tasksPausedAfterFailures = tasksPausedAfterFailuresCounter(registers);
    this.claimsLost = new Counter({
      name: 'dsched_executor_claims_lost_total',
      help: 'Calls aborted because lease renewal found their claim lost',
      registers,
    });
    this.nodeDispatchLatency = new Histogram({
      name: 'dsched_workflow_dispatch_latency_seconds',
      help: 'A workflow node ready (its job made, on the database clock) to its first call claimed',
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    this.nodeCompletions = new Counter({
      name: 'dsched_workflow_node_completions_total',
      help: 'Workflow node jobs this executor finished (their outcome also advanced the run), by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.nodesWoken = new Counter({
      name: 'dsched_workflow_nodes_woken_total',
      help: 'Sleep nodes this executor woke, wait nodes it ended at their timeout, and map nodes it ended once their items had, by kind (no call)',
      labelNames: ['kind'],
      registers,
    });
  }
}
