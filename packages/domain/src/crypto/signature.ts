import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): the signed content is
// "<webhook-id>.<webhook-timestamp>.<body>", HMAC-SHA256 with the secret, base64, prefixed "v1,".
// Secrets are "whsec_<base64>"; the key is the decoded bytes after the prefix.
export const SIGNING_SECRET_PREFIX = 'whsec_';

export function signingKey(secret: string): Buffer {
  const raw = secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret;
  return Buffer.from(raw, 'base64');
}

export function webhookSignature(secret: string, id: string, timestampS: number, body: string): string {
  return webhookSigner(secret)(id, timestampS, body);
}

/**
 * A signer for one secret that decodes the key once: the executor signs every call, and
 * re-deriving the key per call showed up in its CPU profile.
 */
export function webhookSigner(secret: string): (id: string, timestampS: number, body: string) => string {
  const key: KeyObject = createSecretKey(signingKey(secret));
  return (id, timestampS, body) =>
    `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/** Verifies a `webhook-signature` header (space-separated list of versioned signatures). */
export function verifyWebhookSignature(
  secret: string,
  id: string,
  timestampS: number,
  body: string,
  header: string,
): boolean {
  const expected = webhookSignature(secret, id, timestampS, body);
  return header.split(' ').some((candidate) => candidate === expected);
}
