import {
  CALLBACK_RESPONSE_BODY_BYTES,
  type CallResult,
  cappedResponseBody,
  DEFAULT_NODE_OUTPUT_BYTES,
  type Lane,
  parseRetryAfter,
  webhookSigner,
} from '@dsched/domain';
import { Agent } from 'undici';
import type { CallAbort, ClaimedJob, TargetCaller } from '../ports.ts';
import { type CappedExchange, dispatchCapped } from './capped-dispatch.ts';
import {
  guardedConnector,
  type Resolver,
  type SocketOpener,
  TargetRefusedError,
} from './guarded-connector.ts';
import type { AllowList } from './target-policy.ts';

// The outgoing call (docs/api.md "The call a target receives"): the task's method, headers and body,
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
  /** A workflow node's kept output: the first bytes of its response body (read that far at least). */
  maxOutputBytes?: number;
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
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_NODE_OUTPUT_BYTES;
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
  // A task's URL split once into what the dispatcher takes, not parsed again on every call.
  const urlParts = new Map<string, { origin: string; path: string }>();
  const partsOf = (url: string) => {
    let parts = urlParts.get(url);
    if (!parts) {
      if (urlParts.size >= 10_000) urlParts.clear();
      const u = new URL(url);
      parts = { origin: u.origin, path: `${u.pathname}${u.search}` };
      urlParts.set(url, parts);
    }
    return parts;
  };
  const call = async (job: ClaimedJob, abort: CallAbort, traceparent?: string): Promise<CallResult> => {
    const { payload, contentType } = encodeBody(job.target.body);
    if (Buffer.byteLength(payload) > options.maxRequestBytes) {
      return {
        kind: 'error',
        errorClass: 'body_too_large',
        message: `request body over ${options.maxRequestBytes} bytes`,
      };
    }
    const timestampS = Math.floor(now().getTime() / 1000);
    // Built by assignment, in this order (a task's own header of the same name keeps its place and
    // takes the dsched value), not by spreading a small object per optional header.
    const headers: Record<string, string> = { ...job.target.headers };
    if (contentType && !hasHeader(job.target.headers, 'content-type')) headers['content-type'] = contentType;
    headers['idempotency-key'] = job.id;
    headers['dsched-attempt'] = String(job.attempt);
    headers['dsched-scheduled-for'] = job.scheduledFor.toISOString();
    if (job.taskId) headers['dsched-task-id'] = job.taskId;
    headers['webhook-id'] = job.id;
    headers['webhook-timestamp'] = String(timestampS);
    headers['webhook-signature'] = signerFor(job.signingSecret)(job.id, timestampS, payload);
    if (traceparent) headers.traceparent = traceparent;
    // One plain timer per call bounds the whole exchange, head and body (undici's per-phase timers
    // are off: they would only repeat it); an abort by the executor (cancel, lost claim, shutdown)
    // ends it too. AbortSignal.timeout + AbortSignal.any did this at several times the cost
    // (composite-signal bookkeeping, a weak-ref'd timer per call; docs/performance.md).
    let exchange: CappedExchange | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      exchange?.abort(new Error(`no response within ${job.target.timeoutMs} ms`));
    }, job.target.timeoutMs);
    abort.onAbort((reason) => exchange?.abort(reason));
    try {
      if (abort.reason) throw abort.reason;
      const { origin, path } = partsOf(job.target.url);
      // A node job keeps its body's head as its output; a job whose outcome a callback reports
      // keeps the head of the body for the event.
      const node = job.workflowId !== null && maxOutputBytes > 0;
      const keep = node
        ? maxOutputBytes
        : job.followUps?.callbacks
          ? Math.min(CALLBACK_RESPONSE_BODY_BYTES, options.maxResponseBytes)
          : 0;
      exchange = dispatchCapped(
        agentFor(job.lane),
        {
          origin,
          path,
          method: job.target.method,
          headers,
          body: job.target.method === 'GET' ? null : payload,
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        node ? Math.max(options.maxResponseBytes, maxOutputBytes) : options.maxResponseBytes,
        keep,
      );
      const res = await exchange.reply;
      return {
        kind: 'response',
        status: res.status,
        retryAfterMs: parseRetryAfter(res.retryAfter, now()),
        ...(res.head ? { body: node ? res.head.toString('utf8') : cappedResponseBody(res.head) } : {}),
      };
    } catch (err) {
      if (abort.reason) return { kind: 'error', errorClass: 'aborted', message: String(abort.reason) };
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
      abort.onAbort(undefined);
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
