// One occurrence is one trace (docs/tracing.md). Its context is born with the job and stored with
// it, so every later step, in any process and after any crash, joins the same trace: the W3C
// trace-context fields, nothing more.

export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero: the span later steps are children of. */
  spanId: string;
  /** Whether the trace is recorded (the W3C sampled flag, decided once, where the trace began). */
  sampled: boolean;
  /**
   * `spanId` is the occurrence's root span, not exported yet: a job born in a batch (the
   * scheduler's) has no span of its own at birth, and the archiver exports its root, from birth to
   * history, when the occurrence leaves MySQL (docs/tracing.md). Stored as bit 1 of the flags.
   */
  rootOwed?: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The W3C `traceparent` header of a context (version 00). */
export function formatTraceparent(ctx: TraceContext): string {
  return `00-${ctx.traceId}-${ctx.spanId}-${ctx.sampled ? '01' : '00'}`;
}

/**
 * A `traceparent` header read by the W3C rules: version ff and all-zero ids are invalid, a
 * version 00 header has nothing after its flags, and a later version may add fields.
 * Undefined when invalid (a caller then starts a trace of its own, as the specification says).
 */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  if (header === undefined) return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId: traceId!, spanId: spanId!, sampled: (Number.parseInt(flags!, 16) & 1) === 1 };
}

export function isTraceId(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text) && text !== ZERO_TRACE;
}

/** A job being born, as the span of its birth describes it. */
export interface JobBirth {
  id: string;
  taskId?: string | null;
  occurrence?: string;
  kind: string;
  scheduledFor?: Date;
  workflowId?: string | null;
}

/**
 * The births of one batch of jobs (one insert statement): each job's context, in order, and the
 * batch's one span, ended by `end` once the batch committed with the number of jobs it inserted.
 */
export type TraceBatchBirth = (jobs: readonly JobBirth[]) => {
  contexts: TraceContext[];
  end(inserted: number): void;
};

/**
 * Gives a job being born its trace context (and records its birth, when traced): what storage asks
 * of the service for every job or run it inserts. Tracing off, it is random ids and nothing else.
 */
export type TraceBirth = (job: JobBirth) => TraceContext;
