import type { EndedJob, JobsEnded } from '@dsched/domain';
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { JobTraces } from './job-traces.ts';

// The spans of the ways a job ends that are not an executor's outcome (docs/tracing.md): the
// reconciler's give-back and dead-lettering, job-api's completion and cancel. Each path tells the
// finish path's traced ends once its transaction committed (the JobsEnded it was given); each end
// is a `settle` span in the occurrence's trace, a child of the job's stored context, and a batch
// (the reconciler's, one statement for many jobs) is one `settle jobs` span linked to each of them.

/** Which way the jobs ended: the reconciler's give-back or dead-lettering of a batch, or job-api's call on one job. */
export type EndPath = 'reconcile' | 'complete' | 'cancel';

/** A span's name, messaging operation, outcome and error (unset: not an error) for one end. */
function endOf(path: EndPath, end: EndedJob, reason?: string) {
  if (path === 'reconcile') {
    return end.state === 'dead'
      ? { name: 'dead-letter', operation: 'dead_letter', outcome: 'dead', error: reason ?? 'dead' }
      : { name: 'give back', operation: 'give_back', outcome: 'give_back', error: reason ?? 'give_back' };
  }
  if (path === 'cancel') return { name: 'cancel', operation: 'cancel', outcome: 'cancelled' };
  const outcome = end.state === 'pending' ? 'retry' : end.state;
  return {
    name: 'complete',
    operation: 'complete',
    outcome,
    ...(outcome === 'succeeded' ? {} : { error: outcome }),
  };
}

/**
 * What a path is given to tell its traced ends: their spans, started when this was made (just
 * before the path's transaction) and ended when told. Undefined when tracing is off, so the path
 * collects nothing.
 */
export function endSpans(
  traces: JobTraces,
  path: EndPath,
  options: { reason?: string; batch?: boolean } = {},
): JobsEnded | undefined {
  if (!traces.enabled) return undefined;
  const startTime = Date.now();
  // job-api's request span (the caller's trace): each end's span links to it when it is kept.
  const active = trace.getActiveSpan();
  const request = active?.isRecording() ? active : undefined;
  return (ends) => {
    let link: Span | undefined = request;
    if (options.batch) {
      link = traces.batch(
        'settle jobs',
        'settle',
        ends.map((e) => e.trace),
        {
          'messaging.operation.name': path,
          ...(options.reason ? { 'dsched.job.reason': options.reason } : {}),
        },
        startTime,
      );
      link?.end();
    }
    for (const end of ends) {
      const how = endOf(path, end, options.reason);
      const span = traces.step(
        `${how.name} ${end.lane}`,
        end.trace,
        {
          'messaging.operation.type': 'settle',
          'messaging.operation.name': how.operation,
          'messaging.destination.name': end.lane,
          'messaging.message.id': end.id,
          'dsched.job.attempt': end.attempt,
          'dsched.job.outcome': how.outcome,
          ...(options.reason ? { 'dsched.job.reason': options.reason } : {}),
        },
        { kind: SpanKind.CLIENT, link, startTime },
      );
      if (!span) continue;
      if (end.state === 'dead') span.addEvent('dead-lettered', { 'dsched.job.reason': how.error ?? 'dead' });
      if (how.error) span.setStatus({ code: SpanStatusCode.ERROR, message: how.error });
      span.end();
    }
  };
}
