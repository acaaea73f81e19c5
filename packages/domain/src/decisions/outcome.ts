import type { RetryPolicy, RetryRule } from '../model.ts';

// What an attempt's result means for its job. Outcomes are values, not strings.

export type CallResult =
  | {
      kind: 'response';
      status: number;
      retryAfterMs?: number | undefined;
      /** The first bytes of the response body, kept only for a job whose outcome is reported. */
      body?: string | undefined;
    }
  | {
      kind: 'error';
      errorClass: 'network' | 'timeout' | 'refused' | 'aborted' | 'body_too_large';
      message: string;
    };

export type Outcome =
  | { type: 'succeeded' }
  | { type: 'accepted' }
  | { type: 'retry'; afterMs: number; reason: string }
  | { type: 'dead'; reason: string };

const RETRYABLE_STATUSES = new Set([408, 425, 429]);

function ruleMatches(rule: RetryRule, status: number): boolean {
  if (rule.status === '4xx') return status >= 400 && status < 500;
  if (rule.status === '5xx') return status >= 500 && status < 600;
  return rule.status === status;
}

/**
 * Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^(attempt-1))].
 * `random` is a number in [0, 1), injected so tests are exact.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: number): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}

/** The longest a Retry-After header may push a retry out. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export function decideOutcome(
  result: CallResult,
  job: { attempt: number; maxAttempts: number; retry: RetryPolicy },
  random: number,
): Outcome {
  let retryable: boolean;
  let reason: string;
  if (result.kind === 'error') {
    // Only the network and the clock are worth another try: a refused target (SSRF guard) or a
    // request body over the cap would fail the same way again.
    retryable = result.errorClass === 'network' || result.errorClass === 'timeout';
    reason = `${result.errorClass}: ${result.message}`;
  } else {
    const { status } = result;
    const rule = job.retry.rules.find((r) => ruleMatches(r, status));
    if (status >= 200 && status < 300 && !rule)
      return status === 202 ? { type: 'accepted' } : { type: 'succeeded' };
    reason = `HTTP ${status}`;
    if (rule) retryable = rule.action === 'retry';
    else retryable = RETRYABLE_STATUSES.has(status) || status >= 500;
  }
  if (!retryable) return { type: 'dead', reason };
  if (job.attempt >= job.maxAttempts)
    return { type: 'dead', reason: `${reason} (attempt cap ${job.maxAttempts} reached)` };
  let afterMs = backoffMs(job.retry, job.attempt, random);
  if (result.kind === 'response' && result.retryAfterMs !== undefined) {
    afterMs = Math.max(afterMs, Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
  }
  return { type: 'retry', afterMs, reason };
}

/**
 * An asynchronous job whose target reported failure through job-api: retried with backoff while
 * attempts remain (counted as for a call), dead at the cap.
 */
export function decideAsyncFailure(
  job: { attempt: number; maxAttempts: number; retry: RetryPolicy },
  random: number,
  reason: string,
): Outcome {
  if (job.attempt >= job.maxAttempts)
    return { type: 'dead', reason: `${reason} (attempt cap ${job.maxAttempts} reached)` };
  return { type: 'retry', afterMs: backoffMs(job.retry, job.attempt, random), reason };
}

/** Parses Retry-After (delta seconds or an HTTP date) relative to `now`. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
