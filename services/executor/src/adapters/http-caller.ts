import { type CallResult, parseRetryAfter, webhookSignature } from '@dsched/domain';
import { Agent, errors, request } from 'undici';
import type { ClaimedJob, TargetCaller } from '../ports.ts';

// The outgoing call (API.md "The call a target receives"): the task's method, headers and body,
// the dsched headers, and a Standard Webhooks signature. Redirects are not followed (undici's
// request() never follows them); the response body is read up to a cap and discarded.

export function encodeBody(body: unknown): { payload: string; contentType?: string } {
  if (body === undefined) return { payload: '' };
  if (typeof body === 'string') return { payload: body };
  return { payload: JSON.stringify(body), contentType: 'application/json' };
}

export function httpTargetCaller(options: {
  maxResponseBytes: number;
  agent?: Agent;
  now?: () => Date;
}): TargetCaller {
  const agent = options.agent ?? new Agent({ keepAliveTimeout: 30_000, connections: 256, pipelining: 1 });
  const now = options.now ?? (() => new Date());
  return async (job: ClaimedJob, signal: AbortSignal): Promise<CallResult> => {
    const { payload, contentType } = encodeBody(job.target.body);
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
      'webhook-signature': webhookSignature(job.signingSecret, job.id, timestampS, payload),
    };
    const timeout = AbortSignal.timeout(job.target.timeoutMs);
    const combined = AbortSignal.any([signal, timeout]);
    try {
      const res = await request(job.target.url, {
        method: job.target.method,
        headers,
        body: job.target.method === 'GET' ? null : payload,
        signal: combined,
        dispatcher: agent,
      });
      await drainCapped(res.body, options.maxResponseBytes);
      const retryAfter = res.headers['retry-after'];
      return {
        kind: 'response',
        status: res.statusCode,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now()),
      };
    } catch (err) {
      if (timeout.aborted)
        return {
          kind: 'error',
          errorClass: 'timeout',
          message: `no response within ${job.target.timeoutMs} ms`,
        };
      if (signal.aborted)
        return { kind: 'error', errorClass: 'aborted', message: String(signal.reason ?? 'aborted') };
      if (err instanceof errors.ResponseExceededMaxSizeError) {
        return { kind: 'error', errorClass: 'body_too_large', message: (err as Error).message };
      }
      return { kind: 'error', errorClass: 'network', message: (err as Error).message };
    }
  };
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}

/** Reads and drops the body, stopping (and destroying the stream) past the cap. */
async function drainCapped(body: AsyncIterable<Buffer> & { destroy(): void }, cap: number): Promise<void> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen > cap) {
      body.destroy();
      return;
    }
  }
}
