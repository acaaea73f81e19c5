import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

// A real HTTP endpoint on loopback whose answers a test scripts (including holding a request
// open), and which records what it saw: every call, the calls in flight per group at any moment
// (the peak too), calls whose client went away before the answer, and the effects an idempotent
// endpoint would apply (the first call of each Idempotency-Key wins).

export interface TargetCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  idempotencyKey: string;
  attempt: number;
  group: string;
  receivedAt: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** Answers a call; `gone` aborts when the client closes the connection first. */
export type Handler = (call: TargetCall, gone: AbortSignal) => Answer | Promise<Answer>;

export interface ScriptedTarget {
  url: string;
  calls: TargetCall[];
  /** Idempotency-Key → the call whose effect was applied (the first one with that key). */
  effects: Map<string, TargetCall>;
  /** Calls whose client hung up before they were answered. */
  abandoned: TargetCall[];
  inFlight(group: string): number;
  peakInFlight(group: string): number;
  setHandler(handler: Handler): void;
  /** Resolves once `check` holds (re-checked on every call and answer), or rejects after `timeoutMs`. */
  until(check: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startScriptedTarget(
  handler: Handler = () => ({ status: 200 }),
  options: { groupOf?: (path: string) => string } = {},
): Promise<ScriptedTarget> {
  const groupOf = options.groupOf ?? ((path: string) => path.split('/')[1] ?? '');
  const calls: TargetCall[] = [];
  const effects = new Map<string, TargetCall>();
  const abandoned: TargetCall[] = [];
  const current = new Map<string, number>();
  const peak = new Map<string, number>();
  const watchers = new Set<() => void>();
  let handle = handler;
  const changed = () => {
    for (const w of [...watchers]) w();
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const call: TargetCall = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        idempotencyKey: String(req.headers['idempotency-key'] ?? ''),
        attempt: Number(req.headers['dsched-attempt'] ?? 0),
        group: groupOf(path),
        receivedAt: Date.now(),
      };
      calls.push(call);
      if (call.idempotencyKey && !effects.has(call.idempotencyKey)) effects.set(call.idempotencyKey, call);
      const now = (current.get(call.group) ?? 0) + 1;
      current.set(call.group, now);
      peak.set(call.group, Math.max(peak.get(call.group) ?? 0, now));
      const gone = new AbortController();
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        current.set(call.group, (current.get(call.group) ?? 1) - 1);
        changed();
      };
      res.on('close', () => {
        if (!res.writableFinished) {
          abandoned.push(call);
          gone.abort();
        }
        finish();
      });
      changed();
      Promise.resolve()
        .then(() => handle(call, gone.signal))
        .then(
          (answer) => {
            if (gone.signal.aborted) return;
            // The call stops counting as in flight once it is answered, before the bytes leave.
            finish();
            res.writeHead(answer.status, answer.headers ?? {});
            res.end(answer.body ?? 'ok');
          },
          () => res.destroy(),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    effects,
    abandoned,
    inFlight: (group) => current.get(group) ?? 0,
    peakInFlight: (group) => peak.get(group) ?? 0,
    setHandler: (h) => {
      handle = h;
    },
    until: (check, timeoutMs = 30_000, what = 'target condition') =>
      new Promise((resolve, reject) => {
        if (check()) return resolve();
        const watcher = () => {
          if (!check()) return;
          watchers.delete(watcher);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`${what} not reached within ${timeoutMs} ms (${calls.length} calls so far)`));
        }, timeoutMs);
        watchers.add(watcher);
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A promise with its resolve, for handlers that hold calls until the test releases them. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
