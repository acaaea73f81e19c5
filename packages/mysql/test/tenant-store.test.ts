import { newId } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { describe, expect, it } from 'vitest';
import { getTenant, updateTenant } from '../src/tenants/tenant-store.ts';

// A quota patch on real MariaDB: each field it names is written (null lifts a limit), each it
// leaves out stays as it was.

const db = useTestDatabase(import.meta.url);

describe('a tenant quota patch', () => {
  it('writes the fields it names and keeps the others', async () => {
    const tenant = await createTenantWithKey(db.pool);
    expect(await updateTenant(db.pool, tenant.id, { maxTasks: 5, rateLimitPerSecond: 7 })).toBe(true);
    expect(await updateTenant(db.pool, tenant.id, { name: 'renamed' })).toBe(true);
    expect(await getTenant(db.pool, tenant.id)).toMatchObject({
      name: 'renamed',
      maxTasks: 5,
      rateLimitPerSecond: 7,
    });
  });

  it('lifts a limit set to null, and leaves the rest', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await updateTenant(db.pool, tenant.id, { maxTasks: 5, rateLimitPerSecond: 7 });
    expect(await updateTenant(db.pool, tenant.id, { maxTasks: null })).toBe(true);
    expect(await getTenant(db.pool, tenant.id)).toMatchObject({ maxTasks: null, rateLimitPerSecond: 7 });
  });

  it('answers false for a tenant that does not exist, with or without fields', async () => {
    expect(await updateTenant(db.pool, newId(), { maxTasks: 1 })).toBe(false);
    expect(await updateTenant(db.pool, newId(), {})).toBe(false);
  });
});
