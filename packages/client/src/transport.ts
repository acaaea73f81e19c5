import { DschedConfigError, DschedNetworkError } from './errors.ts';

// The one fetch every call goes through: it adds the credential the route needs and retries
// what is safe to retry, with exponential backoff and full jitter.
//
// What is retried (docs in packages/client/README.md):
// - 429: always, after Retry-After (capped at maxDelayMs). Both APIs answer 429 before doing
//   anything (rate limit, quota), so no request has taken effect twice.
// - 502, 503, 504 and network errors: only idempotent calls: GET, HEAD, PUT, DELETE, and a POST
//   that carries an Idempotency-Key (trigger) or is idempotent by the API's contract
//   (pause, resume, cancel, preview).
// Anything else comes back as it is, for the caller to turn into a typed error.

export interface Credentials {
  apiKey?: string | undefined;
  adminToken?: string | undefined;
}

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 4. */
  retries?: number;
  /** First backoff step; doubles per retry. Default 200 ms. */
  baseDelayMs?: number;
  /** Cap of one wait, Retry-After included. Default 10 s. */
  maxDelayMs?: number;
  /** Uniform in [0, 1), for the jitter. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry, e.g. to show progress. */
  onRetry?: (info: { attempt: number; delayMs: number; status?: number; error?: unknown }) => void;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** POST routes that change nothing twice: asking again leaves the same state. */
const IDEMPOTENT_POSTS = [
  /\/v1\/tasks\/[^/]+\/(pause|resume|backfill)$/,
  /\/v1\/jobs\/[^/]+\/cancel$/,
  /\/v1\/workflows\/[^/]+\/(cancel|pause|resume)$/,
  /\/v1\/schedules\/preview$/,
];

export function isIdempotent(request: Request): boolean {
  if (IDEMPOTENT_METHODS.has(request.method)) return true;
  if (request.method !== 'POST') return false;
  if (request.headers.has('idempotency-key')) return true;
  const path = new URL(request.url).pathname;
  return IDEMPOTENT_POSTS.some((re) => re.test(path));
}

const RETRIED_STATUSES = new Set([502, 503, 504]);

export function retryingFetch(
  credentials: Credentials,
  options: RetryOptions & { fetch?: typeof fetch; userAgent?: string } = {},
): (request: Request) => Promise<Response> {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const retries = options.retries ?? 4;
  const base = options.baseDelayMs ?? 200;
  const cap = options.maxDelayMs ?? 10_000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return async (request) => {
    const admin = new URL(request.url).pathname.startsWith('/v1/admin/');
    const token = admin ? credentials.adminToken : credentials.apiKey;
    if (!token) {
      throw admin
        ? new DschedConfigError('adminToken', 'operator routes need the admin token (DSCHED_ADMIN_TOKEN)')
        : new DschedConfigError('apiKey', 'tenant routes need an API key (DSCHED_KEY)');
    }
    request.headers.set('authorization', `Bearer ${token}`);
    if (options.userAgent) request.headers.set('user-agent', options.userAgent);
    const idempotent = isIdempotent(request);
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.floor(random() * Math.min(cap, base * 2 ** attempt));
      let response: Response;
      try {
        response = await baseFetch(request.clone());
      } catch (error) {
        if (!idempotent || attempt >= retries) {
          throw new DschedNetworkError(`${request.method} ${request.url}: ${(error as Error).message}`, {
            cause: error,
          });
        }
        options.onRetry?.({ attempt: attempt + 1, delayMs: backoff, error });
        await sleep(backoff);
        continue;
      }
      const retryable = response.status === 429 || (idempotent && RETRIED_STATUSES.has(response.status));
      if (!retryable || attempt >= retries) return response;
      const after = Number(response.headers.get('retry-after'));
      const delayMs = Math.min(cap, Number.isFinite(after) && after > 0 ? after * 1000 : 0) + backoff;
      await response.body?.cancel();
      options.onRetry?.({ attempt: attempt + 1, delayMs, status: response.status });
      await sleep(delayMs);
    }
  };
}
