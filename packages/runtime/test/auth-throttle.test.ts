import { describe, expect, it } from 'vitest';
import { FailedAuthThrottle } from '../src/index.ts';

describe('the failed-authentication throttle', () => {
  it('lets an address fail up to the limit, then holds it off until its window ends', () => {
    let now = 0;
    const t = new FailedAuthThrottle({ maxFailures: 3, windowS: 60, nowMs: () => now });
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfterS('10.0.0.1')).toBe(0);
      t.recordFailure('10.0.0.1');
    }
    expect(t.retryAfterS('10.0.0.1')).toBe(60);
    expect(t.retryAfterS('10.0.0.2')).toBe(0);
    now = 45_500;
    expect(t.retryAfterS('10.0.0.1')).toBe(15);
    now = 60_000;
    expect(t.retryAfterS('10.0.0.1')).toBe(0);
    t.recordFailure('10.0.0.1');
    expect(t.retryAfterS('10.0.0.1')).toBe(0);
  });

  it('remembers a bounded number of addresses, forgetting the least recently failing', () => {
    const t = new FailedAuthThrottle({ maxFailures: 2, windowS: 60, maxAddresses: 100, nowMs: () => 0 });
    t.recordFailure('keep');
    for (let i = 0; i < 10_000; i++) {
      t.recordFailure(`10.1.${i >> 8}.${i & 255}`);
      if (i % 50 === 0) t.recordFailure('keep');
    }
    expect(t.size).toBe(100);
    expect(t.retryAfterS('keep')).toBe(60);
    expect(t.retryAfterS('10.1.0.0')).toBe(0);
  });
});
