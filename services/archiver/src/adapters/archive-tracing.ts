import type { JobTraces } from '@dsched/runtime';
import { SpanStatusCode } from '@opentelemetry/api';
import type { HistoryWriter } from '../ports.ts';

// The archiver's spans (docs/tracing.md): a batch of jobs written to history is one `settle jobs`
// span linked to the sampled ones, and each sampled job's trace gets an `archive` span (its end:
// written to history, about to leave MySQL), linked to the batch's. Tracing off: the writer as is.
export function traceHistoryWrites(write: HistoryWriter, traces: JobTraces): HistoryWriter {
  if (!traces.enabled) return write;
  return async (records) => {
    const batch = traces.batch(
      'settle jobs',
      'settle',
      records.map((r) => r.trace),
      { 'messaging.operation.name': 'archive' },
    );
    try {
      await write(records);
    } catch (err) {
      batch?.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      batch?.end();
      throw err;
    }
    batch?.end();
    for (const r of records) {
      // A job born in a batch (the scheduler's) owes its trace's root: exported now, from its
      // birth to history, with the ids it stored (a callback or node job copies the context it
      // continues, and owes nothing).
      if (r.trace?.rootOwed && r.view.kind === 'scheduled' && r.bornAt) {
        traces.root(
          r.trace,
          {
            'messaging.message.id': r.view.id,
            'messaging.operation.name': r.view.kind,
            'dsched.job.state': r.view.state,
            'dsched.job.scheduled_for': r.view.scheduledFor,
            ...(r.view.taskId ? { 'dsched.task.id': r.view.taskId } : {}),
          },
          r.bornAt,
        );
      }
      traces.mark(
        'archive',
        r.trace,
        {
          'messaging.operation.type': 'settle',
          'messaging.message.id': r.view.id,
          'dsched.job.state': r.view.state,
          'dsched.job.attempt': r.view.attempt,
        },
        { link: batch },
      );
    }
  };
}
