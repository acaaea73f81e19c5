import type { JobBirth, TraceBatchBirth, TraceBirth, TraceContext } from '@dsched/domain';
import {
  type Attributes,
  type Context,
  context,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TimeInput,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { randomHex } from './random-hex.ts';
import { rootSpanIds } from './root-span-ids.ts';
import type { Tracing } from './tracing.ts';

export { randomHex };

// The spans of one occurrence's trace (docs/tracing.md): its context is born with the job, stored
// with it and carried by the domain's TraceContext; every later step starts its span from it, so
// a step in another process, after any crash, is still a span of the same trace. A batch step
// (one statement for many jobs) is one span linked to the jobs' traces, made only when one of
// them is sampled; per-job spans are made only for sampled jobs. When tracing is off, contexts
// are still born (random ids, not sampled) and nothing else happens: no span objects, no context.

/** Every dsched span says it is about the jobs queue (messaging semantic conventions). */
export const MESSAGING_SYSTEM = 'dsched';

export type MessagingOperation = 'create' | 'send' | 'receive' | 'process' | 'settle';

export class JobTraces {
  readonly enabled: boolean;
  readonly #tracing: Tracing;

  constructor(tracing: Tracing) {
    this.#tracing = tracing;
    this.enabled = tracing.enabled;
  }

  /**
   * A new occurrence's trace, born where its job is born: a `create` span (messaging), a child of
   * `parent` when the job is made within a trace (a request that carried `traceparent`, a
   * parent's outcome), else the root of a new trace. Its context is what the job stores.
   */
  create(
    name: string,
    attributes: Attributes,
    parent?: TraceContext | null,
    at?: { start: TimeInput; end: TimeInput },
  ): TraceContext {
    if (!this.enabled) {
      return parent
        ? { ...childContext(parent) }
        : { traceId: randomHex(16), spanId: randomHex(8), sampled: false };
    }
    const span = this.#tracing.tracer.startSpan(
      name,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': MESSAGING_SYSTEM,
          'messaging.operation.type': 'create',
          ...attributes,
        },
        ...(at ? { startTime: at.start } : {}),
        root: parent === undefined || parent === null ? !trace.getSpanContext(context.active()) : false,
      },
      parent ? remoteContext(parent) : context.active(),
    );
    span.end(at?.end);
    return fromSpanContext(span);
  }

  /**
   * The births of new jobs (or workflow runs): each its own trace, a `create` span whose parent is
   * the active span (a request that carried `traceparent`) or none (the scheduler's batch).
   */
  readonly born: TraceBirth = (job: JobBirth) =>
    this.create(job.workflowId && !job.taskId ? 'create workflow' : 'create job', {
      'messaging.message.id': job.id,
      'messaging.operation.name': job.kind,
      ...(job.taskId ? { 'dsched.task.id': job.taskId } : {}),
      ...(job.workflowId ? { 'dsched.workflow.id': job.workflowId } : {}),
      ...(job.occurrence ? { 'dsched.job.occurrence': job.occurrence } : {}),
      ...(job.scheduledFor ? { 'dsched.job.scheduled_for': job.scheduledFor.toISOString() } : {}),
    });

  /**
   * The births of one batch insert (the scheduler's): each job a new trace whose sampling the
   * sampler decides on its trace id, and whose root span is owed (`rootOwed`: the archiver exports
   * it, with the stored ids, when the occurrence leaves MySQL); the statement is one `create jobs`
   * span linked to each sampled job, ended when the batch committed. Tracing off: random ids only.
   */
  readonly bornBatch: TraceBatchBirth = (jobs) => {
    const contexts: TraceContext[] = new Array(jobs.length);
    if (!this.enabled) {
      for (let i = 0; i < jobs.length; i++) {
        contexts[i] = { traceId: randomHex(16), spanId: randomHex(8), sampled: false };
      }
      return { contexts, end: () => undefined };
    }
    for (let i = 0; i < jobs.length; i++) {
      const traceId = randomHex(16);
      contexts[i] = {
        traceId,
        spanId: randomHex(8),
        sampled: this.#tracing.sampleRoot(traceId),
        rootOwed: true,
      };
    }
    const span = this.batch('create jobs', 'create', contexts, { 'messaging.operation.name': 'materialise' });
    return {
      contexts,
      end: (inserted) => {
        span?.setAttribute('dsched.jobs.inserted', inserted);
        span?.end();
      },
    };
  };

  /**
   * An occurrence's root span, owed since its birth in a batch: exported with the ids its job
   * stored, from `bornAt` to now (the archiver, as the occurrence leaves MySQL). Nothing unless
   * the context owes its root and is sampled.
   */
  root(job: TraceContext | null | undefined, attributes: Attributes, bornAt: TimeInput): void {
    if (!this.enabled || !job?.sampled || !job.rootOwed) return;
    const span = rootSpanIds.withIds(job, () =>
      this.#tracing.tracer.startSpan(
        'occurrence',
        {
          kind: SpanKind.PRODUCER,
          root: true,
          startTime: bornAt,
          attributes: {
            'messaging.system': MESSAGING_SYSTEM,
            'messaging.operation.type': 'create',
            ...attributes,
          },
        },
        ROOT_CONTEXT,
      ),
    );
    span.end();
  }

  /**
   * One span for a statement over many jobs, linked to each sampled job's trace; undefined when
   * no job of the batch is sampled (then nobody would follow the link).
   */
  batch(
    name: string,
    operation: MessagingOperation,
    jobs: readonly (TraceContext | null | undefined)[],
    attributes: Attributes = {},
    startTime?: TimeInput,
  ): Span | undefined {
    if (!this.enabled) return undefined;
    const links: Link[] = [];
    for (const job of jobs) {
      if (job?.sampled) links.push({ context: remoteSpanContext(job) });
    }
    if (links.length === 0) return undefined;
    return this.#tracing.tracer.startSpan(
      name,
      {
        kind: operation === 'create' || operation === 'send' ? SpanKind.PRODUCER : SpanKind.CLIENT,
        root: true,
        links,
        attributes: {
          'messaging.system': MESSAGING_SYSTEM,
          'messaging.operation.type': operation,
          'messaging.batch.message_count': jobs.length,
          ...attributes,
        },
        ...(startTime !== undefined ? { startTime } : {}),
      },
      ROOT_CONTEXT,
    );
  }

  /**
   * A span of one job's step, a child of its stored context, linked to the batch span it was part
   * of; undefined unless the job's trace is sampled.
   */
  step(
    name: string,
    job: TraceContext | null | undefined,
    attributes: Attributes,
    options: { kind?: SpanKind; link?: Span | undefined; startTime?: TimeInput } = {},
  ): Span | undefined {
    if (!this.enabled || !job?.sampled) return undefined;
    return this.#tracing.tracer.startSpan(
      name,
      {
        kind: options.kind ?? SpanKind.INTERNAL,
        attributes: { 'messaging.system': MESSAGING_SYSTEM, ...attributes },
        ...(options.link ? { links: [{ context: options.link.spanContext() }] } : {}),
        ...(options.startTime !== undefined ? { startTime: options.startTime } : {}),
      },
      remoteContext(job),
    );
  }

  /** A zero-length step (a give-back, an archive): made and ended at once. */
  mark(
    name: string,
    job: TraceContext | null | undefined,
    attributes: Attributes,
    options: { link?: Span | undefined; error?: string } = {},
  ): void {
    const span = this.step(name, job, attributes, options);
    if (!span) return;
    if (options.error) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
    span.end();
  }
}

/** The context a span of this job starts from (its stored parent), for context.with(). */
export function remoteContext(job: TraceContext): Context {
  return trace.setSpanContext(ROOT_CONTEXT, remoteSpanContext(job));
}

function remoteSpanContext(job: TraceContext) {
  return {
    traceId: job.traceId,
    spanId: job.spanId,
    traceFlags: job.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  };
}

/** A span's context as a job stores it. */
export function fromSpanContext(span: Span): TraceContext {
  const sc = span.spanContext();
  return { traceId: sc.traceId, spanId: sc.spanId, sampled: (sc.traceFlags & TraceFlags.SAMPLED) !== 0 };
}

/** The same trace and sampling, a new span id: what an untraced step hands on (a call's traceparent). */
export function childContext(parent: TraceContext): TraceContext {
  return { traceId: parent.traceId, spanId: randomHex(8), sampled: parent.sampled };
}
