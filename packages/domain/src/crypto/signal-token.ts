import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SecretsKeyring } from './secret-envelope.ts';

// The token of a wait node's signal URL (docs/workflows.md "Signals"). It is derived, not drawn:
// HMAC-SHA256 of the node's identity (run, node, job) under a key derived from the secrets
// keyring, so task-api can show the same URL on every read without storing it. What is stored is
// its SHA-256 (workflow_nodes.signal_hash); a signal's token is hashed and compared with it in
// constant time. 256 bits from a key the database never holds: unguessable, and a copy of the
// database does not give it. It works once because the node's state allows one signal.

/** A signal token: `sig_` and 43 base64url characters. */
export const SIGNAL_TOKEN = /^sig_[A-Za-z0-9_-]{43}$/;

function signalKey(key: Buffer): Buffer {
  return createHmac('sha256', key).update('dsched signal token v1').digest();
}

/** The token of one wait node's signal URL, under one key of the keyring. */
export function signalToken(
  key: Buffer,
  node: { workflowId: string; nodeId: string; jobId: string },
): string {
  const mac = createHmac('sha256', signalKey(key))
    .update(`${node.workflowId}\n${node.nodeId}\n${node.jobId}`)
    .digest('base64url');
  return `sig_${mac}`;
}

/** What is stored of a token: its SHA-256. */
export function signalTokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Whether a presented token is the one whose hash is stored, in constant time. */
export function signalTokenMatches(token: string, storedHash: Buffer): boolean {
  const presented = signalTokenHash(token);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}

/**
 * The token whose hash is stored for a node, under whichever key of the keyring made it (the
 * current one, or an older one kept after a rotation); null when none did.
 */
export function storedSignalToken(
  keyring: SecretsKeyring,
  node: { workflowId: string; nodeId: string; jobId: string },
  storedHash: Buffer,
): string | null {
  for (const key of [keyring.current.key, ...keyring.byId.values()]) {
    const token = signalToken(key, node);
    if (signalTokenMatches(token, storedHash)) return token;
  }
  return null;
}
