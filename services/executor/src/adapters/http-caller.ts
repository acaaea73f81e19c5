import type { Readable } from 'node:stream';
import {
  CALLBACK_RESPONSE_BODY_BYTES,
  type CallResult,
  cappedResponseBody,
  type Lane,
  parseRetryAfter,
  webhookSigner,
} from '@dsched/domain';
import { Agent, request } from 'undici';
import type { ClaimedJob, TargetCaller } from '../ports.ts';
import {
  guardedConnector,
  type Resolver,
  type SocketOpener,
  TargetRefusedError,
} from './guarded-connector.ts';
import type { AllowList } from './target-policy.ts';

// The outgoing call (API.md "The call a target receives"): the task's method, headers and body,
// the dsched headers, and a Standard Webhooks signature. undici keeps connections alive per
// origin; every new connection goes through the SSRF guard. Redirects are never followed
// (request() does not follow them; a 3xx is an outcome like any other status). The job's timeout
// bounds the whole call, headers and body; the request body and the part of the response body
// that is read are capped.

export function encodeBody(body: unknown): { payload: string; contentType?: string } {
  if (body === undefined) return { payload: '' };
  if (typeof body === 'string') return { payload: body };
  return { payload: JSON.stringify(body), contentType: 'application/json' };
}

export interface HttpCallerOptions {
  allow: AllowList;
  maxRequestBytes: number;
  maxResponseBytes: number;
  connectTimeoutMs: number;
  connectionsPerOrigin: number;
  resolve?: Resolver;
  open?: SocketOpener;
  /** Wall clock for the webhook-timestamp header (the receiver's replay check compares to it). */
  now?: () => Date;
}

export function httpTargetCaller(options: HttpCallerOptions): TargetCaller & { close(): Promise<void> } {
  const connect = guardedConnector({
    allow: options.allow,
    connectTimeoutMs: options.connectTimeoutMs,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.open ? { open: options.open } : {}),
  });
  // One connection pool per lane: a critical call never queues for a connection behind the default
  // lane's calls to the same origin (its reserved slots would be worth little if it did).
  const agents = new Map<Lane, Agent>();
  const agentFor = (lane: Lane) => {
    let agent = agents.get(lane);
    if (!agent) {
      agent = new Agent({
        keepAliveTimeout: 30_000,
        connections: options.connectionsPerOrigin,
        pipelining: 1,
        connect,
      });
      agents.set(lane, agent);
    }
    return agent;
  };
  const now = options.now ?? (() => new Date());
  // Signers by secret, bounded: a tenant's key is decoded once, not on every call.
  const signers = new Map<string, ReturnType<typeof webhookSigner>>();
  const signerFor = (secret: string) => {
    let signer = signers.get(secret);
    if (!signer) {
      if (signers.size >= 10_000) signers.clear();
      signer = webhookSigner(secret);
      signers.set(secret, signer);
    }
    return signer;
  };
  const call = async (job: ClaimedJob, signal: AbortSignal): Promise<CallResult> => {
    const { payload, contentType } = encodeBody(job.target.body);
    if (Buffer.byteLength(payload) > options.maxRequestBytes) {
      return {
        kind: 'error',
        errorClass: 'body_too_large',
        message: `request body over ${options.maxRequestBytes} bytes`,
      };
    }
    const timestampS = Math.floor(now().getTime() / 1000);
    const headers: Record<string, string> = {
      ...job.target.headers,
      ...(contentType && !hasHeader(job.target.headers, 'content-type')
        ? { 'content-type': contentType }
        : {}),
      'idempotency-key': job.id,
      'dsched-attempt': String(job.attempt),
      'dsched-scheduled-for': job.scheduledFor.toISOString(),
      ...(job.taskId ? { 'dsched-task-id': job.taskId } : {}),
      'webhook-id': job.id,
      'webhook-timestamp': String(timestampS),
      'webhook-signature': signerFor(job.signingSecret)(job.id, timestampS, payload),
    };
    // One controller and one plain timer per call: the job's timeout bounds the whole call, and an
    // abort by the executor (cancel, lost claim, shutdown) ends it too. AbortSignal.timeout and
    // AbortSignal.any did the same at several times the cost (composite-signal bookkeeping and a
    // weak-ref'd timer per call, in the executor's CPU profile; docs/performance.md).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no response within ${job.target.timeoutMs} ms`));
    }, job.target.timeoutMs);
    const onAbort = () => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await request(job.target.url, {
        method: job.target.method,
        headers,
        body: job.target.method === 'GET' ? null : payload,
        signal: controller.signal,
        dispatcher: agentFor(job.lane),
        // The timer above bounds headers and body together; undici's own per-phase timers (armed
        // and refreshed per chunk) would only repeat it, so they are off.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      // A job whose outcome a callback reports keeps the head of the body for the event.
      const keep = job.followUps?.callbacks
        ? Math.min(CALLBACK_RESPONSE_BODY_BYTES, options.maxResponseBytes)
        : 0;
      const head = await drainCapped(res.body, options.maxResponseBytes, keep);
      const retryAfter = res.headers['retry-after'];
      return {
        kind: 'response',
        status: res.statusCode,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now()),
        ...(head ? { body: cappedResponseBody(head) } : {}),
      };
    } catch (err) {
      if (signal.aborted) return { kind: 'error', errorClass: 'aborted', message: String(signal.reason) };
      if (timedOut) {
        return {
          kind: 'error',
          errorClass: 'timeout',
          message: `no response within ${job.target.timeoutMs} ms`,
        };
      }
      const refused = findRefusal(err);
      if (refused) return { kind: 'error', errorClass: 'refused', message: refused.message };
      return { kind: 'error', errorClass: 'network', message: describe(err) };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  };
  return Object.assign(call, {
    close: async () => {
      await Promise.all([...agents.values()].map((a) => a.close()));
    },
  });
}

function findRefusal(err: unknown): TargetRefusedError | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof TargetRefusedError) return e;
  }
  return undefined;
}

function describe(err: unknown): string {
  const e = err as { message?: string; code?: string };
  return [e.code, e.message].filter(Boolean).join(': ') || String(err);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}

/**
 * Reads and drops the body, stopping (and closing the connection) past the cap; returns its first
 * `keep` bytes when asked to keep any. Event-driven: an async iterator per response cost a promise
 * and a tick per chunk. A body that breaks before its end (reset, timeout, abort) rejects, so the
 * call counts as failed as before.
 */
function drainCapped(body: Readable, cap: number, keep = 0): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const done = () => resolve(keep > 0 ? Buffer.concat(kept) : undefined);
    body
      .on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (keptBytes < keep) {
          const part = chunk.subarray(0, keep - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (seen > cap) {
          body.destroy();
          done();
        }
      })
      .once('end', done)
      .once('error', reject);
  });
}
