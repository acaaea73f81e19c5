import {
  type NewTenant,
  type QuotaPatch,
  type SecretsKeyring,
  sealedKeyId,
  sealSecret,
  type Tenant,
} from '@dsched/domain';
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

const INSERT_TENANT = loadSql(import.meta.url, './insert-tenant.sql');
const INSERT_API_KEY = loadSql(import.meta.url, './insert-api-key.sql');
const SELECT_TENANT = loadSql(import.meta.url, './select-tenant.sql');
const TENANT_BY_KEY_HASH = loadSql(import.meta.url, './tenant-by-key-hash.sql');
const UPDATE_TENANT = loadSql(import.meta.url, './update-tenant.sql');
const LOCK_TENANT = loadSql(import.meta.url, './lock-tenant.sql');
const EXPIRE_API_KEYS = loadSql(import.meta.url, './expire-api-keys.sql');
const INSERT_ROTATED_API_KEY = loadSql(import.meta.url, './insert-rotated-api-key.sql');

/** select-tenant.sql, tenant-by-key-hash.sql. */
interface TenantRow extends RowDataPacket {
  id: Buffer;
  name: string;
  max_tasks: number | null;
  max_concurrency: number | null;
  rate_limit_per_second: number | null;
  /** DECIMAL: a string from the driver. */
  weight: string | number;
  created_at: Date;
}

function toTenant(r: TenantRow): Tenant {
  return {
    id: binToId(r.id),
    name: r.name,
    maxTasks: r.max_tasks === null ? null : Number(r.max_tasks),
    maxConcurrency: r.max_concurrency === null ? null : Number(r.max_concurrency),
    rateLimitPerSecond: r.rate_limit_per_second === null ? null : Number(r.rate_limit_per_second),
    weight: Number(r.weight),
    createdAt: r.created_at,
  };
}

/**
 * Writes a new tenant and its first API key. With a keyring its signing secret is stored sealed
 * (what task-api does); without one, as given: a plaintext row as written before migration 0046,
 * which tests and benchmarks use and every reader still accepts.
 */
export async function insertTenant(
  pool: Pool,
  tenant: NewTenant,
  key: { hash: Buffer; prefix: string },
  options: { keyring?: SecretsKeyring } = {},
): Promise<void> {
  const stored = options.keyring
    ? sealSecret(options.keyring, tenant.id, tenant.signingSecret)
    : tenant.signingSecret;
  await withTransaction(pool, async (conn) => {
    await conn.query(INSERT_TENANT, [
      idToBin(tenant.id),
      tenant.name,
      stored,
      sealedKeyId(stored),
      tenant.maxTasks,
      tenant.maxConcurrency,
      tenant.rateLimitPerSecond,
      tenant.weight,
      tenant.createdAt,
      tenant.createdAt,
    ]);
    await conn.query(INSERT_API_KEY, [key.hash, idToBin(tenant.id), key.prefix, tenant.createdAt]);
    if (tenant.maxConcurrency !== null) await syncTenantSlots(conn, tenant.id, tenant.maxConcurrency);
  });
}

export async function getTenant(pool: Pool, id: string): Promise<Tenant | null> {
  const [rows] = await pool.query<TenantRow[]>(SELECT_TENANT, [idToBin(id)]);
  return rows[0] ? toTenant(rows[0]) : null;
}

/** The tenant owning an unexpired key with this hash. */
export async function findTenantByKeyHash(pool: Pool, keyHash: Buffer): Promise<Tenant | null> {
  const [rows] = await pool.query<TenantRow[]>(TENANT_BY_KEY_HASH, [keyHash]);
  return rows[0] ? toTenant(rows[0]) : null;
}

/** Applies a quota patch; false when the tenant does not exist. */
export async function updateTenant(pool: Pool, id: string, patch: QuotaPatch): Promise<boolean> {
  const fields = [patch.name, patch.maxTasks, patch.maxConcurrency, patch.rateLimitPerSecond, patch.weight];
  if (fields.every((v) => v === undefined)) return (await getTenant(pool, id)) !== null;
  return withTransaction(pool, async (conn) => {
    const [res] = await conn.query<ResultSetHeader>(UPDATE_TENANT, [
      ...fields.flatMap((v) => (v === undefined ? [0, null] : [1, v])),
      idToBin(id),
    ]);
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
    const [rows] = await conn.query<RowDataPacket[]>(LOCK_TENANT, [idToBin(tenantId)]);
    if (rows.length === 0) return false;
    await conn.query(EXPIRE_API_KEYS, [graceS, idToBin(tenantId), graceS]);
    await conn.query(INSERT_ROTATED_API_KEY, [key.hash, idToBin(tenantId), key.prefix]);
    return true;
  });
}
