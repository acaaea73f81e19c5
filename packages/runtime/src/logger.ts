import { hostname } from 'node:os';
import { context, trace } from '@opentelemetry/api';
import { type Logger, pino } from 'pino';

export type { Logger };

// JSON logs. Credentials never reach a log line: request headers, connection URLs and secrets are
// redacted by path, wherever they are nested.
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'authorization',
  'apiKey',
  '*.apiKey',
  'signingSecret',
  '*.signingSecret',
  'password',
  '*.password',
  'DATABASE_URL',
  '*.DATABASE_URL',
  'DSCHED_ADMIN_TOKEN',
  '*.DSCHED_ADMIN_TOKEN',
  'adminToken',
  '*.adminToken',
];

export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service, pid: process.pid, host: hostname() },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: traceFields,
    },
    destination,
  );
}

export function instanceId(service: string, configured?: string): string {
  return configured ?? `${service}-${hostname()}-${process.pid}`;
}

/**
 * The trace a log line was written in (the active span: a request's, a job attempt's), so logs
 * join traces. Nothing when no span is active, which is always so when tracing is off (no context
 * manager is registered then); lines about one job say its trace explicitly (`jobLogFields`).
 */
function traceFields(): Record<string, string> {
  const span = trace.getSpanContext(context.active());
  return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** The log fields of a job's trace, for lines about a job written outside its span. */
export function jobLogFields(job: {
  trace?: { traceId: string; spanId: string } | null;
}): Record<string, string> {
  return job.trace ? { trace_id: job.trace.traceId, span_id: job.trace.spanId } : {};
}
