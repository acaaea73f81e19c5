import {
  type Attributes,
  type Context,
  context,
  DiagLogLevel,
  diag,
  type Link,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { JobTraces } from './job-traces.ts';
import type { Logger } from './logger.ts';
import { rootSpanIds } from './root-span-ids.ts';
import { type TracingConfig, tracesUrl } from './tracing-config.ts';

// OpenTelemetry for one service (docs/tracing.md). With no endpoint nothing is set up: no
// provider, no exporter, no context manager, no propagator. The API's no-op tracer answers, and
// job traces are still born and carried (job-traces.ts) because the trace id a tenant sees and the
// `traceparent` a target receives do not depend on whether dsched records its own spans.

export interface Tracing {
  /** Spans are recorded and exported. */
  readonly enabled: boolean;
  readonly tracer: Tracer;
  /** Where the spans go (the OTLP traces URL), when enabled. */
  readonly url: string | undefined;
  /**
   * The sampler's decision for a new trace with this id, without making a span: a job born in a
   * batch gets its trace and decision here, the batch's one span links the sampled ones.
   */
  sampleRoot(traceId: string): boolean;
  /** Exports what is buffered and stops; the last shutdown step. */
  shutdown(): Promise<void>;
}

export const TRACER_NAME = 'dsched';

let current: Tracing | undefined;

/** The tracing this process started (tracingOff before startTracing, or when it is off). */
export function currentTracing(): Tracing {
  return current ?? tracingOff;
}

export const tracingOff: Tracing = {
  enabled: false,
  tracer: trace.getTracer(TRACER_NAME),
  url: undefined,
  sampleRoot: () => false,
  shutdown: async () => undefined,
};

export interface StartTracingOptions {
  service: string;
  config: TracingConfig;
  logger: Logger;
  /** service.instance.id (the INSTANCE_ID the service runs as). */
  instanceId?: string;
  /** Tests: spans go here instead of OTLP (tracing on without an endpoint). */
  exporter?: SpanExporter;
}

/** Sets up the global tracer provider when an endpoint is configured; tracingOff when not. */
export function startTracing(options: StartTracingOptions): Tracing {
  const { config, logger } = options;
  const url = tracesUrl(config);
  if (!url && !options.exporter) {
    current = tracingOff;
    return tracingOff;
  }
  // The SDK's own complaints (an export that failed, a full queue) go to the service's log, as
  // warnings: tracing must never take a service down, but an operator should see it is not working.
  diag.setLogger(diagToPino(logger), { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  const exporter = options.exporter ?? otlpExporter(config, url!);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...config.OTEL_RESOURCE_ATTRIBUTES,
      'service.name':
        config.OTEL_SERVICE_NAME ?? config.OTEL_RESOURCE_ATTRIBUTES['service.name'] ?? options.service,
      'service.namespace': config.OTEL_RESOURCE_ATTRIBUTES['service.namespace'] ?? 'dsched',
      ...(options.instanceId ? { 'service.instance.id': options.instanceId } : {}),
    }),
    sampler: new LinkedBatchSampler(samplerOf(config)),
    idGenerator: rootSpanIds,
    // A batch span links every sampled job of its statement (up to a claim's or an insert's 1,000).
    spanLimits: { linkCountLimit: 1000 },
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        ...(config.OTEL_BSP_SCHEDULE_DELAY ? { scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY } : {}),
        ...(config.OTEL_BSP_EXPORT_TIMEOUT ? { exportTimeoutMillis: config.OTEL_BSP_EXPORT_TIMEOUT } : {}),
        ...(config.OTEL_BSP_MAX_QUEUE_SIZE ? { maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE } : {}),
        ...(config.OTEL_BSP_MAX_EXPORT_BATCH_SIZE
          ? { maxExportBatchSize: config.OTEL_BSP_MAX_EXPORT_BATCH_SIZE }
          : {}),
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  logger.info(
    { url: options.exporter ? '(test exporter)' : url, sampler: samplerOf(config).toString() },
    'tracing on',
  );
  const rootSampler = samplerOf(config);
  current = {
    enabled: true,
    tracer: trace.getTracer(TRACER_NAME),
    url,
    sampleRoot: (traceId) =>
      rootSampler.shouldSample(ROOT_CONTEXT, traceId, 'create job', SpanKind.PRODUCER, {}, []).decision ===
      SamplingDecision.RECORD_AND_SAMPLED,
    shutdown: async () => {
      await provider.shutdown().catch((err: unknown) => logger.warn({ err }, 'tracing: final export failed'));
    },
  };
  return current;
}

/** The tracing runWorker() and runApi() start for their service, with its job traces. */
export function startServiceTracing(
  options: { service: string; otel: TracingConfig; instanceId?: string },
  logger: Logger,
): { tracing: Tracing; traces: JobTraces } {
  const tracing = startTracing({
    service: options.service,
    config: options.otel,
    logger,
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
  });
  return { tracing, traces: new JobTraces(tracing) };
}

function otlpExporter(config: TracingConfig, url: string): SpanExporter {
  const protocol =
    config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  return protocol === 'http/json' ? new OtlpJsonExporter({ url }) : new OtlpProtobufExporter({ url });
}

/** The configured sampler (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG; the ratio defaults to 1). */
export function samplerOf(config: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG ?? 1);
  switch (config.OTEL_TRACES_SAMPLER) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
  }
}

/**
 * A batch step (one statement for many jobs) is one span with a link to each sampled job's
 * trace, made only when at least one is sampled: such a span is sampled whatever the ratio says,
 * or the jobs' traces would link to a span that was never kept. Every other span is the
 * configured sampler's to decide. always_off stays off.
 */
export class LinkedBatchSampler implements Sampler {
  readonly #inner: Sampler;
  readonly #off: boolean;
  constructor(inner: Sampler) {
    this.#inner = inner;
    this.#off = inner instanceof AlwaysOffSampler;
  }
  shouldSample(
    ctx: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (
      !this.#off &&
      links.length > 0 &&
      trace.getSpanContext(ctx) === undefined &&
      links.some((l) => (l.context.traceFlags & TraceFlags.SAMPLED) !== 0)
    ) {
      return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    }
    return this.#inner.shouldSample(ctx, traceId, name, kind, attributes, links);
  }
  toString(): string {
    return `LinkedBatchSampler{${this.#inner.toString()}}`;
  }
}

function diagToPino(logger: Logger) {
  const log = logger.child({ component: 'opentelemetry' });
  const write =
    (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: string, ...args: unknown[]) =>
      log[level]({ args: args.map((a) => (a instanceof Error ? a.message : a)) }, message);
  return {
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    verbose: write('trace'),
  };
}
