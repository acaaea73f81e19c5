import type { components } from './generated/task-api.ts';

// Typed errors of @dsched/client. Every answer of the APIs outside 2xx becomes a DschedApiError
// carrying the API's `error.code`, `message` and `details` (each naming a field), so callers
// branch on `code`, never on message text.

export interface ErrorDetail {
  field: string;
  issue: string;
}

/** The codes of the API's error document, from its OpenAPI schema. */
export type ErrorCode = components['schemas']['Error']['error']['code'];

export class DschedApiError extends Error {
  override readonly name: string = 'DschedApiError';
  readonly status: number;
  /** The API's `error.code`; `internal` when the body was not the API's error document. */
  readonly code: ErrorCode | string;
  readonly details: ErrorDetail[];
  /** From `Retry-After` (a 429 or a 503), when the server sent one. */
  readonly retryAfterMs: number | undefined;
  /** The body as received. */
  readonly body: unknown;

  constructor(
    status: number,
    body: unknown,
    init: { retryAfterMs?: number | undefined; method?: string; url?: string } = {},
  ) {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)
      ?.error;
    const code = typeof error?.code === 'string' ? error.code : 'internal';
    const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
    super(`${code}: ${message}${init.method && init.url ? ` (${init.method} ${init.url})` : ''}`);
    this.status = status;
    this.code = code;
    this.details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [];
    this.retryAfterMs = init.retryAfterMs;
    this.body = body;
  }

  /** The issue the API reported for a field, if it named that field. */
  issueFor(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.issue;
  }
}

/**
 * The API refused a page token (malformed, from another query, or from a version of the API that
 * wrote tokens differently). A paging iterator throws this instead of restarting from the first
 * page, which would repeat items: start a new walk, or fix the query the token came from.
 */
export class PageTokenError extends DschedApiError {
  override readonly name = 'PageTokenError';
}

/** The request never got an answer (connection refused, reset, DNS), after the retries allowed. */
export class DschedNetworkError extends Error {
  override readonly name = 'DschedNetworkError';
}

/** The client was not given what a call needs (a base URL, an API key, the admin token). */
export class DschedConfigError extends Error {
  override readonly name = 'DschedConfigError';
  /** The option or environment variable to set. */
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(message);
    this.setting = setting;
  }
}

export function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export async function errorFromResponse(response: Response, method: string): Promise<DschedApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const init = { retryAfterMs: retryAfterMs(response.headers), method, url: new URL(response.url).pathname };
  const err = new DschedApiError(response.status, body, init);
  return err.code === 'invalid_argument' && err.details.some((d) => d.field === 'pageToken')
    ? new PageTokenError(response.status, body, init)
    : err;
}
