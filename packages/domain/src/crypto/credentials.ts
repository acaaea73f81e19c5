import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SIGNING_SECRET_PREFIX } from './signature.ts';

// Tenant credentials. API keys are 256-bit random strings shown once and stored as SHA-256;
// a fast hash suffices because a key cannot be guessed, only stolen.
export const API_KEY_PREFIX = 'dsk_';

export function newApiKey(): { key: string; hash: Buffer; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 12) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function newSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
