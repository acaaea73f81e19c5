import { openSecret, type SecretsKeyring, sealSecret } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId } from '../ids.ts';
import { loadSql, withRows } from '../sql.ts';

const RESEAL_SELECT = loadSql(import.meta.url, './reseal-select.sql');
const RESEAL_UPDATE = loadSql(import.meta.url, './reseal-update.sql');
const FIRST_ID = Buffer.alloc(16);

/**
 * Seals every tenant's signing secret with the keyring's current key: plaintext rows (written
 * before migration 0046) and rows sealed by an older key. Batches until a short one; safe to run
 * on several replicas at once and while the services run (docs/bulk-operations.md). Returns how many
 * rows it rewrote.
 */
export async function resealSigningSecrets(
  pool: Pool,
  keyring: SecretsKeyring,
  options: { batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? 200;
  let after: Buffer = FIRST_ID;
  let resealed = 0;
  for (;;) {
    const [rows] = await pool.query<RowDataPacket[]>(RESEAL_SELECT, [after, keyring.current.id, batch]);
    if (rows.length === 0) return resealed;
    const update = withRows(
      RESEAL_UPDATE,
      ['id', 'old', 'sealed', 'key_id'],
      rows.map((r) => {
        const old = String(r.signing_secret);
        // Opened with its own key first: a row under a key the ring lacks stops the pass.
        const secret = openSecret(keyring, binToId(r.id), old);
        return [r.id, old, sealSecret(keyring, binToId(r.id), secret), keyring.current.id];
      }),
    );
    const [res] = await pool.query<ResultSetHeader>(update.sql, update.params);
    resealed += res.affectedRows;
    if (rows.length < batch) return resealed;
    after = rows[rows.length - 1]!.id as Buffer;
  }
}
