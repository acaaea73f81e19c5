import { type CallResult, type ClaimedJob, formatTraceparent, type TraceContext } from '@dsched/domain';
import { childContext, endSpans, type JobTraces, randomHex } from '@dsched/runtime';
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { JobClaimer, OutcomeWriter, TargetCaller } from '../ports.ts';

// The executor's spans (docs/tracing.md), wrapped around its three adapters so the core stays as
// it is: a claim is one `receive {lane}` span linked to the sampled jobs it took; each attempt is
// a `process {lane}` span in its job's trace (attempt, outcome, status), from the call's start to
// its outcome written, with the call as its `{METHOD}` client span, whose context is the
// `traceparent` the target receives; a batch of outcomes is one `settle` span linked to its jobs.
// With tracing off only the traceparent is made: the job's trace id and a fresh span id.

// Spans by the job object the lane worker hands to each adapter in turn (claim → call → outcome).
const claimSpans = new WeakMap<object, Span>();
const attempts = new WeakMap<object, Span>();

export function traceClaims(claim: JobClaimer, traces: JobTraces): JobClaimer {
  if (!traces.enabled) return claim;
  return async (lane, limit) => {
    const startTime = Date.now();
    // A job whose cancel was requested before any executor took it is cancelled by the claim:
    // a `cancel` span of its trace (the finish path's traced end).
    const cancels = endSpans(traces, 'cancel', { reason: 'cancelled_at_claim' });
    const result = await claim(lane, limit);
    if (result.ended && cancels) cancels(result.ended);
    if (result.jobs.length === 0) return result;
    const span = traces.batch(
      `receive ${lane}`,
      'receive',
      traceOf(result.jobs),
      {
        'messaging.destination.name': lane,
        'messaging.operation.name': 'claim',
      },
      startTime,
    );
    if (span) {
      span.end();
      for (const job of result.jobs) if (job.trace?.sampled) claimSpans.set(job, span);
    }
    return result;
  };
}

export function traceCalls(call: TargetCaller, traces: JobTraces): TargetCaller {
  if (!traces.enabled) {
    return (job, abort) => call(job, abort, untraced(job));
  }
  return async (job, abort) => {
    const process = traces.step(`process ${job.lane}`, job.trace, attemptAttributes(job), {
      kind: SpanKind.CONSUMER,
      link: claimSpans.get(job),
    });
    if (!process) return call(job, abort, untraced(job));
    attempts.set(job, process);
    const url = new URL(job.target.url);
    const client = traces.step(
      job.target.method,
      { ...job.trace!, spanId: process.spanContext().spanId },
      {
        'http.request.method': job.target.method,
        'server.address': url.hostname,
        'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        'url.full': `${url.origin}${url.pathname}`,
        ...(job.attempt > 1 ? { 'http.request.resend_count': job.attempt - 1 } : {}),
      },
      { kind: SpanKind.CLIENT },
    )!;
    const sc = client.spanContext();
    const result = await context.with(trace.setSpan(context.active(), process), () =>
      call(job, abort, formatTraceparent({ traceId: sc.traceId, spanId: sc.spanId, sampled: true })),
    );
    endCall(client, result);
    return result;
  };
}

export function traceOutcomes(write: OutcomeWriter, traces: JobTraces): OutcomeWriter {
  if (!traces.enabled) return write;
  return async (writes) => {
    const settle = traces.batch('settle jobs', 'settle', traceOf(writes.map((w) => w.job as ClaimedJob)), {
      'messaging.operation.name': 'outcome',
    });
    let lost: Awaited<ReturnType<OutcomeWriter>>;
    try {
      lost = await write(writes);
    } catch (err) {
      settle?.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      settle?.end();
      throw err;
    }
    settle?.end();
    const stale = new Set(lost);
    for (const w of writes) {
      const span = attempts.get(w.job);
      if (!span) continue;
      attempts.delete(w.job);
      const t = w.transition;
      const outcome = t.to === 'retry' ? 'retry' : t.to;
      span.setAttribute('dsched.job.outcome', stale.has(w) ? 'stale' : outcome);
      if (t.to === 'retry') span.setAttribute('dsched.job.retry_in_ms', t.delayMs);
      if (t.to === 'dead') span.addEvent('dead-lettered', { 'dsched.job.reason': t.lastError ?? '' });
      if (settle) span.addLink({ context: settle.spanContext() });
      if (stale.has(w)) span.setStatus({ code: SpanStatusCode.ERROR, message: 'claim lost: result dropped' });
      else if (outcome !== 'succeeded' && outcome !== 'parked') {
        span.setStatus({ code: SpanStatusCode.ERROR, message: ('lastError' in t && t.lastError) || outcome });
      }
      span.end();
    }
    return lost;
  };
}

function attemptAttributes(job: ClaimedJob) {
  return {
    'messaging.operation.type': 'process',
    'messaging.destination.name': job.lane,
    'messaging.message.id': job.id,
    'messaging.client.id': job.owner,
    'dsched.job.attempt': job.attempt,
    'dsched.job.max_attempts': job.maxAttempts,
    'dsched.job.priority': job.priority,
    'dsched.job.scheduled_for': job.scheduledFor.toISOString(),
    'dsched.tenant.id': job.tenantId,
    ...(job.taskId ? { 'dsched.task.id': job.taskId } : {}),
    ...(job.workflowId
      ? { 'dsched.workflow.id': job.workflowId, 'dsched.workflow.node.id': job.nodeId ?? '' }
      : {}),
  };
}

function endCall(span: Span, result: CallResult): void {
  if (result.kind === 'response') {
    span.setAttribute('http.response.status_code', result.status);
    if (result.status >= 400) {
      span.setAttribute('error.type', String(result.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  } else {
    span.setAttribute('error.type', result.errorClass);
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.message });
  }
  span.end();
}

function traceOf(jobs: readonly { trace?: TraceContext | null }[]): (TraceContext | null | undefined)[] {
  return jobs.map((j) => j.trace);
}

/**
 * The traceparent of a call no span of ours records: a child of the job's trace, or, for a job born
 * before traces were stored, a trace of its own (its span id made once, not made and replaced).
 */
function untraced(job: ClaimedJob): string {
  return formatTraceparent(
    job.trace ? childContext(job.trace) : { traceId: randomHex(16), spanId: randomHex(8), sampled: false },
  );
}
