import type { Dispatcher } from 'undici';

// One HTTP exchange through undici's dispatcher API, without a response stream: the status and
// Retry-After come from the head, body chunks are counted and dropped, and past the cap the
// exchange is cut (the connection closed); a caller may keep the body's first bytes. `request()` built a Readable for every response and
// drained it through stream events and ticks, a visible part of the executor's CPU per job
// (docs/performance.md). undici follows no redirect at this level, like `request()`.

export interface Reply {
  status: number;
  retryAfter: string | undefined;
  /** The body's first `keepBytes` bytes, when any were asked for. */
  head: Buffer | undefined;
}

export interface CappedExchange {
  /** Settles with the head once the body ended or passed the cap; rejects on any failure. */
  reply: Promise<Reply>;
  /**
   * Ends the exchange with `reason`: at once, whether or not undici has started the request yet
   * (one still queued for a connection is dropped when its turn comes, never sent).
   */
  abort(reason: Error): void;
}

export function dispatchCapped(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  capBytes: number,
  keepBytes = 0,
): CappedExchange {
  let controller: Dispatcher.DispatchController | undefined;
  let abortedWith: Error | undefined;
  let status = 0;
  let retryAfter: string | undefined;
  let seen = 0;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let settled = false;
  let resolve!: (r: Reply) => void;
  let reject!: (e: Error) => void;
  const reply = new Promise<Reply>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const finish = (err?: Error) => {
    if (settled) return;
    settled = true;
    if (err) reject(err);
    else resolve({ status, retryAfter, head: keepBytes > 0 ? Buffer.concat(kept) : undefined });
  };
  dispatcher.dispatch(options, {
    onRequestStart(c) {
      controller = c;
      if (abortedWith) c.abort(abortedWith);
    },
    onResponseStart(_c, statusCode, headers) {
      status = statusCode;
      const value = headers['retry-after'];
      retryAfter = Array.isArray(value) ? value[0] : value;
    },
    onResponseData(c, chunk) {
      seen += chunk.length;
      if (keptBytes < keepBytes) {
        const part = chunk.subarray(0, keepBytes - keptBytes);
        kept.push(Buffer.from(part)); // a copy: the chunk belongs to undici once this returns
        keptBytes += part.length;
      }
      if (seen > capBytes) {
        finish();
        c.abort(new Error(`response body over ${capBytes} bytes: not read further`));
      }
    },
    onResponseEnd() {
      finish();
    },
    onResponseError(_c, err) {
      finish(err);
    },
  });
  return {
    reply,
    abort(reason) {
      if (settled) return;
      abortedWith = reason;
      finish(reason);
      controller?.abort(reason);
    },
  };
}
