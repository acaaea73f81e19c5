import { describe, expect, it } from 'vitest';
import { verdictOf } from '../src/harness/run.ts';

// The verdict of a run (harness/run.ts): a check whose failure is the known price of the
// configuration asked for (mysql-failover --async 1 --cut-link 1) makes EXPECTED-LOSS, naming the
// price; it never hides a failure of any other check, and never reads as PASS.

const ok = (name: string) => ({ name, ok: true, detail: '' });
const failed = (name: string, expectedCost?: string) => ({
  name,
  ok: false,
  detail: '',
  ...(expectedCost ? { expectedCost } : {}),
});
const ASYNC = 'asynchronous replication loses what the replica had not received';

describe('the verdict', () => {
  it('is PASS when every check passed, INCOMPLETE when a check could not be made', () => {
    expect(verdictOf([ok('a'), ok('b')], false)).toEqual({ verdict: 'PASS', costs: [] });
    expect(verdictOf([ok('a')], true)).toEqual({ verdict: 'INCOMPLETE', costs: [] });
  });

  it('is EXPECTED-LOSS naming the price once when only expected costs failed', () => {
    expect(verdictOf([ok('a'), failed('b', ASYNC), failed('c', ASYNC)], true)).toEqual({
      verdict: 'EXPECTED-LOSS',
      costs: [ASYNC],
    });
  });

  it('is FAIL when any other check failed, expected costs beside it or not', () => {
    expect(verdictOf([failed('a'), failed('b', ASYNC)], false).verdict).toBe('FAIL');
    expect(verdictOf([ok('a'), failed('b')], false).verdict).toBe('FAIL');
  });

  it('is PASS, not EXPECTED-LOSS, when a check that may cost passed', () => {
    expect(verdictOf([{ ...ok('b'), expectedCost: ASYNC }], false)).toEqual({ verdict: 'PASS', costs: [] });
  });
});
