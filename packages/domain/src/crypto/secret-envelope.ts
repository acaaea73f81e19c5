import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Tenant signing secrets at rest: AES-256-GCM under a key of the secrets keyring, in an envelope
// that names the key, so a row says which key opens it and keys can rotate without downtime
// (docs/bulk-operations.md#rotating-the-secrets-key).
//
//   enc1:<key id>:<base64url(12-byte IV | ciphertext | 16-byte tag)>
//
// The tenant id is the additional authenticated data: an envelope copied onto another tenant's
// row does not open. A value without the prefix is a plaintext secret written before migration
// 0046 (they all start `whsec_`); it is read as it is until the reseal pass seals it.

export const SEALED_PREFIX = 'enc1:';

export interface SecretKey {
  id: string;
  key: Buffer;
}

/** The keys that open stored secrets; the first seals new ones. */
export interface SecretsKeyring {
  current: SecretKey;
  byId: ReadonlyMap<string, Buffer>;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_TEXT = /^[A-Za-z0-9+/_-]{43}=?$/;
/** The id of a keyring entry given without one (`DSCHED_SECRETS_KEY=<base64>`). */
export const DEFAULT_KEY_ID = 'default';

/**
 * Parses `DSCHED_SECRETS_KEY`: one base64 (or base64url) 32-byte key, or a keyring
 * `id:key,id:key` whose first entry seals new secrets and every entry opens them. Errors never
 * repeat key material.
 */
export function parseSecretsKeyring(text: string): SecretsKeyring {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('is empty: give a base64 32-byte key, or id:key,id:key');
  const keys: SecretKey[] = entries.map((entry, i) => {
    const colon = entry.indexOf(':');
    const id = colon === -1 ? DEFAULT_KEY_ID : entry.slice(0, colon);
    const material = colon === -1 ? entry : entry.slice(colon + 1);
    if (!KEY_ID.test(id)) throw new Error(`entry ${i + 1}: a key id is 1-32 of A-Z a-z 0-9 _ -`);
    const key = KEY_TEXT.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) throw new Error(`entry ${i + 1} (${id}): the key must be 32 bytes in base64`);
    return { id, key };
  });
  const byId = new Map<string, Buffer>();
  for (const k of keys) {
    if (byId.has(k.id)) throw new Error(`key id ${k.id} appears twice`);
    byId.set(k.id, k.key);
  }
  return { current: keys[0]!, byId };
}

/** A new random key in the format parseSecretsKeyring reads, for operators. */
export function newSecretsKey(): string {
  return randomBytes(32).toString('base64');
}

const aad = (tenantId: string) => Buffer.from(`dsched tenant signing secret ${tenantId}`, 'utf8');

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** The id of the key that sealed a stored secret; null for a plaintext one. */
export function sealedKeyId(stored: string): string | null {
  if (!isSealed(stored)) return null;
  const end = stored.indexOf(':', SEALED_PREFIX.length);
  return end === -1 ? null : stored.slice(SEALED_PREFIX.length, end);
}

export function sealSecret(keyring: SecretsKeyring, tenantId: string, secret: string): string {
  const { id, key } = keyring.current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(tenantId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The secret a stored value holds: opened when sealed, as it is when plaintext (before 0046). */
export function openSecret(keyring: SecretsKeyring, tenantId: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  const id = sealedKeyId(stored);
  const key = id === null ? undefined : keyring.byId.get(id);
  if (!key)
    throw new Error(`tenant ${tenantId}: its signing secret is sealed with key "${id}", not in the keyring`);
  const raw = Buffer.from(stored.slice(SEALED_PREFIX.length + id!.length + 1), 'base64url');
  if (raw.length < 12 + 16) throw new Error(`tenant ${tenantId}: malformed sealed signing secret`);
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(aad(tenantId));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  try {
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new Error(`tenant ${tenantId}: the sealed signing secret does not open with key "${id}"`);
  }
}

/** Whether the reseal pass should rewrite a stored value: plaintext, or sealed by an older key. */
export function needsReseal(keyring: SecretsKeyring, stored: string): boolean {
  return sealedKeyId(stored) !== keyring.current.id;
}
