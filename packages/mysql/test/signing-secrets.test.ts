import { newSecretsKey, openSecret, parseSecretsKeyring, sealedKeyId } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { claimJobs } from '../src/jobs/claim/claims.ts';
import { loadSql, withRows } from '../src/sql.ts';
import { resealSigningSecrets } from '../src/tenants/signing-secrets.ts';

// Tenant signing secrets at rest: sealed when written with a keyring, plaintext rows from before
// migration 0046 still read, and the reseal pass moving every row to the current key.

const db = useTestDatabase(import.meta.url);
const oldRing = parseSecretsKeyring(`old:${newSecretsKey()}`);
const newRing = parseSecretsKeyring(
  `new:${newSecretsKey()},old:${[...oldRing.byId.values()][0]!.toString('base64')}`,
);

async function stored(id: string): Promise<{ secret: string; keyId: string | null }> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT signing_secret, signing_secret_key_id FROM tenants WHERE id = ?',
    [idToBin(id)],
  );
  return { secret: String(rows[0]!.signing_secret), keyId: rows[0]!.signing_secret_key_id };
}

describe('signing secrets at rest', () => {
  it('are stored sealed under the current key, with its id, and read back by the claim', async () => {
    const t = await createTenantWithKey(db.pool, 'sealed', {}, { keyring: oldRing });
    const row = await stored(t.id);
    expect(row.secret).not.toContain(t.signingSecret.slice(6));
    expect(row).toMatchObject({ keyId: 'old' });
    expect(sealedKeyId(row.secret)).toBe('old');
    expect(openSecret(oldRing, t.id, row.secret)).toBe(t.signingSecret);
    await insertDueJobs(db.pool, { tenantId: t.id, target: { url: 'http://127.0.0.1:9/' } });
    const [job] = (await claimJobs(db.pool, { lane: 'default', limit: 1, owner: 'x', leaseSeconds: 60 }))
      .jobs;
    // the claim carries the stored envelope; the executor opens it (services/executor adapters)
    expect(openSecret(oldRing, t.id, job!.signingSecret)).toBe(t.signingSecret);
  });

  it('are resealed under a new key, plaintext rows too, once, while both keys open them', async () => {
    const plain = await createTenantWithKey(db.pool, 'plain');
    const sealedOld = await createTenantWithKey(db.pool, 'sealed', {}, { keyring: oldRing });
    const sealedNew = await createTenantWithKey(db.pool, 'sealed', {}, { keyring: newRing });
    const before = await stored(sealedNew.id);
    expect(await stored(plain.id)).toEqual({ secret: plain.signingSecret, keyId: null });

    // batch 1 makes every row its own batch: the cursor walks past the rows already current
    const resealed = await resealSigningSecrets(db.pool, newRing, { batch: 1 });
    expect(resealed).toBeGreaterThanOrEqual(2);
    for (const t of [plain, sealedOld, sealedNew]) {
      const row = await stored(t.id);
      expect(row.keyId).toBe('new');
      expect(openSecret(newRing, t.id, row.secret)).toBe(t.signingSecret);
    }
    expect(await stored(sealedNew.id)).toEqual(before);
    expect(await resealSigningSecrets(db.pool, newRing)).toBe(0);
    const [left] = await db.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM tenants WHERE signing_secret_key_id IS NULL OR signing_secret_key_id <> 'new'",
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  it('leave a row alone that changed between the read and the reseal', async () => {
    const t = await createTenantWithKey(db.pool, 'plain');
    const [res] = await db.pool.query(
      "UPDATE tenants SET signing_secret = 'whsec_changed' WHERE id = ? AND signing_secret = ?",
      [idToBin(t.id), t.signingSecret],
    );
    expect(res).toMatchObject({ affectedRows: 1 });
    // the reseal's update carries the value it read; a stale one matches nothing
    const update = withRows(
      loadSql(new URL('../src/tenants/', import.meta.url).href, './reseal-update.sql'),
      ['id', 'old', 'sealed', 'key_id'],
      [[idToBin(t.id), t.signingSecret, 'enc1:new:x', 'new']],
    );
    const [stale] = await db.pool.query(update.sql, update.params);
    expect(stale).toMatchObject({ affectedRows: 0 });
    expect(await stored(t.id)).toEqual({ secret: 'whsec_changed', keyId: null });
  });
});
