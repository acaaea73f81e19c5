// The small error vocabulary of docs/api.md. Every error the services raise on purpose is a DschedError
// with a stable code; the HTTP mapping lives in one table in packages/runtime.

export type ErrorCode =
  | 'invalid_argument'
  | 'not_found'
  | 'conflict'
  | 'unauthenticated'
  | 'permission_denied'
  | 'resource_exhausted'
  | 'failed_precondition'
  | 'internal';

export interface FieldIssue {
  field: string;
  issue: string;
}

export class DschedError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldIssue[];
  /** Seconds a client should wait before retrying (resource_exhausted, unavailable). */
  readonly retryAfterS: number | undefined;
  /** An `internal` error that passes: a store the request needs is unreachable for now (HTTP 503). */
  readonly unavailable: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: FieldIssue[]; cause?: unknown; retryAfterS?: number; unavailable?: boolean } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'DschedError';
    this.code = code;
    this.details = options.details ?? [];
    this.retryAfterS = options.retryAfterS;
    this.unavailable = options.unavailable ?? false;
  }
}

export function invalidArgument(field: string, issue: string): DschedError {
  return new DschedError('invalid_argument', `${field}: ${issue}`, { details: [{ field, issue }] });
}

export function notFound(what: string): DschedError {
  return new DschedError('not_found', `${what} not found`);
}

export function conflict(message: string): DschedError {
  return new DschedError('conflict', message);
}

/**
 * A store the request needs cannot be reached right now (history while Cassandra is down): code
 * `internal` (docs/api.md's codes are fixed), answered 503 with Retry-After, the store named in the
 * details. What does not need that store keeps working.
 */
export function storeUnavailable(
  store: string,
  message: string,
  cause?: unknown,
  retryAfterS = 5,
): DschedError {
  return new DschedError('internal', message, {
    details: [{ field: `(${store})`, issue: 'unavailable' }],
    retryAfterS,
    unavailable: true,
    cause,
  });
}

/**
 * A fenced write matched no row: the claim (attempt) it carried is no longer current, so another
 * claimant owns the job. The result is dropped and counted, never applied.
 */
export class ClaimLostError extends Error {
  readonly jobId: string;
  readonly attempt: number;
  constructor(jobId: string, attempt: number) {
    super(`claim lost: job ${jobId} is no longer at attempt ${attempt} in state running`);
    this.name = 'ClaimLostError';
    this.jobId = jobId;
    this.attempt = attempt;
  }
}
