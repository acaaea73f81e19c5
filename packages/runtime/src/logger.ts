import { hostname } from 'node:os';
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
    },
    destination,
  );
}

export function instanceId(service: string, configured?: string): string {
  return configured ?? `${service}-${hostname()}-${process.pid}`;
}
