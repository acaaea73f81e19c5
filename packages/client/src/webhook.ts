import { createHmac, timingSafeEqual } from 'node:crypto';

// Verifies the signature dsched puts on every call it makes (Standard Webhooks,
// https://www.standardwebhooks.com): `webhook-signature` holds space-separated `v1,<base64>`
// HMAC-SHA256 signatures of "<webhook-id>.<webhook-timestamp>.<raw body>" with the tenant's
// signing secret (`whsec_<base64>`, shown once when the tenant was made).
//
// Verify the raw bytes as received, before any JSON parsing: a re-serialised body does not match.
// The timestamp must be within `toleranceS` of now (default 5 minutes) both ways, so a captured
// call cannot be replayed later; keep `webhook-id` (the job id, the same on every attempt) if
// you must also refuse a replay inside the window. Comparison is constant-time.

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export const WEBHOOK_TOLERANCE_S = 300;

export type WebhookFailure = 'missing_header' | 'bad_timestamp' | 'too_old' | 'too_new' | 'bad_signature';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * Throws WebhookVerificationError unless the call is signed with `secret` and fresh; answers the
 * call's id (the job id, also its Idempotency-Key) and its signing time.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: { toleranceS?: number; now?: Date } = {},
): { id: string; timestamp: Date } {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'missing_header',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError('bad_timestamp', 'webhook-timestamp is not whole seconds');
  }
  const seconds = Number(timestamp);
  const nowS = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceS ?? WEBHOOK_TOLERANCE_S;
  if (seconds < nowS - tolerance)
    throw new WebhookVerificationError('too_old', 'webhook-timestamp is too old');
  if (seconds > nowS + tolerance)
    throw new WebhookVerificationError('too_new', 'webhook-timestamp is in the future');
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(payload).digest();
  const match = signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw new WebhookVerificationError('bad_signature', 'no signature matches');
  return { id, timestamp: new Date(seconds * 1000) };
}
