import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isSealed,
  needsReseal,
  newSecretsKey,
  newSigningSecret,
  openSecret,
  parseSecretsKeyring,
  sealedKeyId,
  sealSecret,
} from '../src/index.ts';

const k1 = newSecretsKey();
const k2 = newSecretsKey();
const tenant = '019a0000-0000-7000-8000-000000000001';

describe('the secrets keyring', () => {
  it('reads one key, or id:key entries whose first seals', () => {
    expect(parseSecretsKeyring(k1).current.id).toBe('default');
    const ring = parseSecretsKeyring(`new:${k2}, old:${k1}`);
    expect(ring.current.id).toBe('new');
    expect([...ring.byId.keys()]).toEqual(['new', 'old']);
    expect(parseSecretsKeyring(Buffer.from(k1, 'base64').toString('base64url')).current.key).toEqual(
      Buffer.from(k1, 'base64'),
    );
  });

  it('refuses an empty, short, long or non-base64 key, a bad id and a repeated id, without echoing the key', () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    const long = Buffer.alloc(48, 7).toString('base64');
    for (const text of ['', ' , ', short, long, '!'.repeat(44), `bad id:${k1}`, `a:${k1},a:${k2}`]) {
      let message = '';
      try {
        parseSecretsKeyring(text);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).not.toBe('');
      for (const material of [k1, k2, short, long]) expect(message).not.toContain(material);
    }
  });
});

describe('sealed signing secrets', () => {
  const ring = parseSecretsKeyring(`k1:${k1}`);

  it('open to what was sealed, for any secret, and never show it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (secret) => {
        const sealed = sealSecret(ring, tenant, secret);
        expect(isSealed(sealed)).toBe(true);
        expect(sealedKeyId(sealed)).toBe('k1');
        if (secret.length >= 4) expect(sealed).not.toContain(secret);
        expect(openSecret(ring, tenant, sealed)).toBe(secret);
      }),
    );
    const secret = newSigningSecret();
    expect(sealSecret(ring, tenant, secret)).not.toBe(sealSecret(ring, tenant, secret));
    expect(sealSecret(ring, tenant, secret).length).toBeLessThanOrEqual(200);
  });

  it('read a plaintext row as it is: rows written before migration 0046 keep working', () => {
    const plain = newSigningSecret();
    expect(isSealed(plain)).toBe(false);
    expect(openSecret(ring, tenant, plain)).toBe(plain);
    expect(needsReseal(ring, plain)).toBe(true);
  });

  it('do not open on another tenant’s row, when tampered with, or under an unknown key', () => {
    const sealed = sealSecret(ring, tenant, newSigningSecret());
    expect(() => openSecret(ring, '019a0000-0000-7000-8000-000000000002', sealed)).toThrow(/does not open/);
    const body = sealed.slice(sealed.lastIndexOf(':') + 1);
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => openSecret(ring, tenant, sealed.replace(body, flipped))).toThrow(/does not open/);
    expect(() => openSecret(parseSecretsKeyring(`k2:${k2}`), tenant, sealed)).toThrow(/key "k1", not in/);
  });

  it('rotate: the new first key seals, both open, and only rows under other keys need a reseal', () => {
    const old = sealSecret(ring, tenant, 'whsec_x');
    const rotated = parseSecretsKeyring(`k2:${k2},k1:${k1}`);
    expect(openSecret(rotated, tenant, old)).toBe('whsec_x');
    expect(needsReseal(rotated, old)).toBe(true);
    const fresh = sealSecret(rotated, tenant, 'whsec_x');
    expect(sealedKeyId(fresh)).toBe('k2');
    expect(needsReseal(rotated, fresh)).toBe(false);
  });
});
