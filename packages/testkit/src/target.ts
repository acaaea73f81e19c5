import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

// A real HTTP endpoint on loopback that records every call it receives.

export interface ReceivedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type Responder = (call: ReceivedCall) => {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  /** The response body; 'ok' when absent. */
  body?: string;
};

export interface RecordingTarget {
  url: string;
  calls: ReceivedCall[];
  /** Resolves once at least `n` calls arrived, or rejects after `timeoutMs`. */
  waitForCalls(n: number, timeoutMs?: number): Promise<ReceivedCall[]>;
  setResponder(r: Responder): void;
  close(): Promise<void>;
}

export async function startRecordingTarget(
  responder: Responder = () => ({ status: 200 }),
): Promise<RecordingTarget> {
  const calls: ReceivedCall[] = [];
  let respond = responder;
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call: ReceivedCall = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      calls.push(call);
      for (const w of waiters.filter((w) => calls.length >= w.n)) w.resolve();
      const answer = respond(call);
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? 'ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    setResponder: (r) => {
      respond = r;
    },
    waitForCalls: (n, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        if (calls.length >= n) return resolve(calls);
        const timer = setTimeout(
          () => reject(new Error(`only ${calls.length} of ${n} calls within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(calls);
          },
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
