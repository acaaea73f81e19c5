import { describe, expect, it } from 'vitest';
import { CallAbortHook } from '../src/core/call-abort.ts';

// The lane's per-call abort hook (what an AbortController per job did, without an EventTarget).

describe('CallAbortHook', () => {
  it('tells the listener once, with the first reason; a listener set after the abort hears it at once', () => {
    const hook = new CallAbortHook();
    const heard: string[] = [];
    hook.onAbort((r) => heard.push(r.message));
    hook.abort(new Error('cancel'));
    hook.abort(new Error('shutdown'));
    expect(heard).toEqual(['cancel']);
    expect(hook.reason?.message).toBe('cancel');
    const late: string[] = [];
    hook.onAbort((r) => late.push(r.message));
    expect(late).toEqual(['cancel']);
  });

  it('does not tell a listener that was cleared', () => {
    const hook = new CallAbortHook();
    const heard: string[] = [];
    hook.onAbort((r) => heard.push(r.message));
    hook.onAbort(undefined);
    hook.abort(new Error('lost'));
    expect(heard).toEqual([]);
  });

  it('ends a hold early when the call is aborted, also when it was aborted before the hold', async () => {
    // Which ends first: the hold of a minute, or a 5 s timer (the hold only if the abort ended it).
    const first = (hold: Promise<void>) =>
      Promise.race([
        hold.then(() => 'hold ended'),
        new Promise((resolve) => setTimeout(resolve, 5000, 'timer')),
      ]);
    const hook = new CallAbortHook();
    const held = hook.sleep(60_000);
    hook.abort(new Error('cancel'));
    expect(await first(held)).toBe('hold ended');
    const already = new CallAbortHook();
    already.abort(new Error('lost'));
    expect(await first(already.sleep(60_000))).toBe('hold ended');
  });
});
