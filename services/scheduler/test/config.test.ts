import { ConfigError } from '@dsched/runtime';
import { describe, expect, it } from 'vitest';
import { loadSchedulerConfig } from '../src/config.ts';

const base = { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db' };

describe('scheduler configuration', () => {
  it('has defaults that keep the lease arithmetic sound', () => {
    const c = loadSchedulerConfig(base);
    expect(c).toMatchObject({
      SCHEDULER_PARTITIONS: 64,
      SCHEDULER_LEASES: 'on',
      SCHEDULER_LEASE_TTL_MS: 10_000,
      SCHEDULER_LEASE_CHECK_MS: 1_000,
      SCHEDULER_LOOKAHEAD_S: 10,
      MYSQL_TOPOLOGY: 'single',
      VITESS_KEYSPACE: 'dsched',
    });
    // 48 partitions are fine on one primary; on Vitess they must be a power of two.
    expect(loadSchedulerConfig({ ...base, SCHEDULER_PARTITIONS: '48' }).SCHEDULER_PARTITIONS).toBe(48);
  });

  it.each([
    [{ SCHEDULER_LEASES: 'maybe' }, 'SCHEDULER_LEASES'],
    [{ SCHEDULER_LEASE_TTL_MS: '500' }, 'SCHEDULER_LEASE_TTL_MS'],
    [{ SCHEDULER_LEASE_TTL_MS: '3000', SCHEDULER_LEASE_CHECK_MS: '2000' }, 'SCHEDULER_LEASE_CHECK_MS'],
    [{ SCHEDULER_PARTITIONS: '0' }, 'SCHEDULER_PARTITIONS'],
    [{ SCHEDULER_BATCH_SIZE: 'lots' }, 'SCHEDULER_BATCH_SIZE'],
    [{ MYSQL_TOPOLOGY: 'sharded' }, 'MYSQL_TOPOLOGY'],
    [{ MYSQL_TOPOLOGY: 'vitess', SCHEDULER_PARTITIONS: '48' }, 'SCHEDULER_PARTITIONS'],
    [{ DATABASE_POOL_SIZE: '2' }, 'DATABASE_POOL_SIZE'],
  ])('refuses %j naming %s', (env, variable) => {
    try {
      loadSchedulerConfig({ ...base, ...env });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toContain(variable);
    }
  });
});
