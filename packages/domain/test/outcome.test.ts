import { describe, expect, it } from 'vitest';
import { backoffMs, decideOutcome, parseRetryAfter, type RetryPolicy } from '../src/index.ts';

const retry: RetryPolicy = { maxAttempts: 5, initialBackoffMs: 1000, maxBackoffMs: 60_000, rules: [] };
const job = (attempt: number, policy = retry) => ({
  attempt,
  maxAttempts: policy.maxAttempts,
  retry: policy,
});

describe('decideOutcome', () => {
  it('succeeds on 2xx and parks 202 for asynchronous completion', () => {
    expect(decideOutcome({ kind: 'response', status: 204 }, job(1), 0.5)).toEqual({ type: 'succeeded' });
    expect(decideOutcome({ kind: 'response', status: 202 }, job(1), 0.5)).toEqual({ type: 'accepted' });
  });

  it('retries network errors, timeouts, 408, 425, 429 and 5xx; dead-letters other 4xx at once', () => {
    for (const status of [408, 425, 429, 500, 503]) {
      expect(decideOutcome({ kind: 'response', status }, job(1), 0.5).type).toBe('retry');
    }
    expect(decideOutcome({ kind: 'error', errorClass: 'timeout', message: 't' }, job(1), 0.5).type).toBe(
      'retry',
    );
    expect(decideOutcome({ kind: 'error', errorClass: 'network', message: 'n' }, job(1), 0.5).type).toBe(
      'retry',
    );
    for (const status of [400, 401, 404, 409, 422]) {
      expect(decideOutcome({ kind: 'response', status }, job(1), 0.5).type).toBe('dead');
    }
  });

  it('applies the task’s rules before the defaults', () => {
    const policy = {
      ...retry,
      rules: [
        { status: 409 as const, action: 'retry' as const },
        { status: '5xx' as const, action: 'dead' as const },
      ],
    };
    expect(decideOutcome({ kind: 'response', status: 409 }, job(1, policy), 0.5).type).toBe('retry');
    expect(decideOutcome({ kind: 'response', status: 503 }, job(1, policy), 0.5).type).toBe('dead');
  });

  it('dead-letters at the attempt cap', () => {
    const out = decideOutcome({ kind: 'response', status: 503 }, job(5), 0.5);
    expect(out.type).toBe('dead');
  });

  it('honours Retry-After over a shorter backoff, capped', () => {
    const out = decideOutcome({ kind: 'response', status: 503, retryAfterMs: 30_000 }, job(1), 0.1);
    expect(out).toMatchObject({ type: 'retry', afterMs: 30_000 });
  });
});

describe('backoff', () => {
  it('is full jitter under an exponential ceiling with a cap', () => {
    expect(backoffMs(retry, 1, 0.999)).toBeLessThan(1000);
    expect(backoffMs(retry, 3, 0.999)).toBeLessThan(4000);
    expect(backoffMs(retry, 3, 0.999)).toBeGreaterThan(3900);
    expect(backoffMs(retry, 30, 0.999)).toBeLessThan(60_000);
    expect(backoffMs(retry, 4, 0)).toBe(0);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
