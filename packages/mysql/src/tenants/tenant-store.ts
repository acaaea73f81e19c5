import type { QuotaPatch, Tenant } from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';

const SLOTS_PROVISION = loadSql(import.meta.url, './slots-provision.sql');
const SLOTS_TRIM = loadSql(import.meta.url, './slots-trim.sql');

/**
 * Keeps a tenant's concurrency slots (docs/tenant-concurrency.md) in step with its limit, in the
 * transaction that sets the limit: rows 0 .. limit - 1 exist, free rows past it are gone.
 */
async function syncTenantSlots(conn: PoolConnection, tenantId: string, limit: number | null): Promise<void> {
  const id = idToBin(tenantId);
  if (limit !== null) await conn.query(SLOTS_PROVISION, [id, limit]);
  await conn.query(SLOTS_TRIM, [id, limit ?? 0]);
}

// Tenants and their API keys. Keys are looked up by their SHA-256; a tenant is always read by id
// or by key, never listed to another tenant.

function toTenant(r: RowDataPacket): Tenant {
  return {
    id: binToId(r.id),
    name: r.name,
    signingSecret: r.signing_secret,
    maxTasks: r.max_tasks === null ? null : Number(r.max_tasks),
    maxConcurrency: r.max_concurrency === null ? null : Number(r.max_concurrency),
    rateLimitPerSecond: r.rate_limit_per_second === null ? null : Number(r.rate_limit_per_second),
    createdAt: r.created_at,
  };
}

const TENANT_COLUMNS =
  'id, name, signing_secret, max_tasks, max_concurrency, rate_limit_per_second, created_at';

export async function insertTenant(
  pool: Pool,
  tenant: Tenant,
  key: { hash: Buffer; prefix: string },
): Promise<void> {
  await withTransaction(pool, async (conn) => {
    await conn.query(`INSERT INTO tenants (${TENANT_COLUMNS}, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
      idToBin(tenant.id),
      tenant.name,
      tenant.signingSecret,
      tenant.maxTasks,
      tenant.maxConcurrency,
      tenant.rateLimitPerSecond,
      tenant.createdAt,
      tenant.createdAt,
    ]);
    await conn.query(
      'INSERT INTO tenant_api_keys (key_hash, tenant_id, key_prefix, created_at) VALUES (?, ?, ?, ?)',
      [key.hash, idToBin(tenant.id), key.prefix, tenant.createdAt],
    );
    if (tenant.maxConcurrency !== null) await syncTenantSlots(conn, tenant.id, tenant.maxConcurrency);
  });
}

export async function getTenant(pool: Pool, id: string): Promise<Tenant | null> {
  const [rows] = await pool.query<RowDataPacket[]>(`SELECT ${TENANT_COLUMNS} FROM tenants WHERE id = ?`, [
    idToBin(id),
  ]);
  return rows[0] ? toTenant(rows[0]) : null;
}

/** The tenant owning an unexpired key with this hash. */
export async function findTenantByKeyHash(pool: Pool, keyHash: Buffer): Promise<Tenant | null> {
  const [rows] = await pool.query<RowDataPacket[]>(
    `SELECT t.id, t.name, t.signing_secret, t.max_tasks, t.max_concurrency, t.rate_limit_per_second, t.created_at
       FROM tenant_api_keys k JOIN tenants t ON t.id = k.tenant_id
      WHERE k.key_hash = ? AND (k.expires_at IS NULL OR k.expires_at > NOW(3))`,
    [keyHash],
  );
  return rows[0] ? toTenant(rows[0]) : null;
}

export async function updateTenant(pool: Pool, id: string, patch: QuotaPatch): Promise<boolean> {
  const sets: string[] = [];
  const values: unknown[] = [];
  const columns: [keyof QuotaPatch, string][] = [
    ['name', 'name'],
    ['maxTasks', 'max_tasks'],
    ['maxConcurrency', 'max_concurrency'],
    ['rateLimitPerSecond', 'rate_limit_per_second'],
  ];
  for (const [field, column] of columns) {
    if (patch[field] !== undefined) {
      sets.push(`${column} = ?`);
      values.push(patch[field]);
    }
  }
  if (sets.length === 0) return (await getTenant(pool, id)) !== null;
  return withTransaction(pool, async (conn) => {
    const [res] = await conn.query<ResultSetHeader>(
      `UPDATE tenants SET ${sets.join(', ')}, updated_at = NOW(3) WHERE id = ?`,
      [...values, idToBin(id)],
    );
    if (res.affectedRows !== 1) return false;
    if (patch.maxConcurrency !== undefined) await syncTenantSlots(conn, id, patch.maxConcurrency);
    return true;
  });
}

/**
 * Adds a key and gives every older key of the tenant `graceS` seconds more to live, so clients
 * can switch without an outage. Returns false when the tenant does not exist.
 */
export async function rotateApiKey(
  pool: Pool,
  tenantId: string,
  key: { hash: Buffer; prefix: string },
  graceS: number,
): Promise<boolean> {
  return withTransaction(pool, async (conn) => {
    const [rows] = await conn.query<RowDataPacket[]>('SELECT id FROM tenants WHERE id = ? FOR UPDATE', [
      idToBin(tenantId),
    ]);
    if (rows.length === 0) return false;
    await conn.query(
      `UPDATE tenant_api_keys SET expires_at = NOW(3) + INTERVAL ? SECOND
        WHERE tenant_id = ? AND (expires_at IS NULL OR expires_at > NOW(3) + INTERVAL ? SECOND)`,
      [graceS, idToBin(tenantId), graceS],
    );
    await conn.query(
      'INSERT INTO tenant_api_keys (key_hash, tenant_id, key_prefix, created_at) VALUES (?, ?, ?, NOW(3))',
      [key.hash, idToBin(tenantId), key.prefix],
    );
    return true;
  });
}
