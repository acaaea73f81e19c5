import { ConfigError } from '@dsched/runtime';
import { TEST_SECRETS_KEY } from '@dsched/testkit/secrets';
import { describe, expect, it } from 'vitest';
import { loadExecutorConfig } from '../src/config.ts';

const base = { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db', DSCHED_SECRETS_KEY: TEST_SECRETS_KEY };

// What the executor's claim per group needs (docs/sharding.md): the topology, the partition count
// its groups are made of, the sharded keyspace; a bad value stops it at start, naming the variable.
describe('executor configuration', () => {
  it('claims from one group of 64 partitions on one primary by default', () => {
    expect(loadExecutorConfig(base)).toMatchObject({
      MYSQL_TOPOLOGY: 'single',
      SCHEDULER_PARTITIONS: 64,
      VITESS_KEYSPACE: 'dsched',
      EXECUTOR_TENANT_CACHE_MS: 5000,
    });
    expect(
      loadExecutorConfig({ ...base, MYSQL_TOPOLOGY: 'vitess', SCHEDULER_PARTITIONS: '128' }),
    ).toMatchObject({
      MYSQL_TOPOLOGY: 'vitess',
      SCHEDULER_PARTITIONS: 128,
    });
    // Any count on one primary: there the partitions are one group whatever their number.
    expect(loadExecutorConfig({ ...base, SCHEDULER_PARTITIONS: '48' }).SCHEDULER_PARTITIONS).toBe(48);
    // A pool of 8 holds three lanes' claims; one lane (the others at 0) needs 4.
    expect(loadExecutorConfig({ ...base, DATABASE_POOL_SIZE: '8' }).DATABASE_POOL_SIZE).toBe(8);
    expect(
      loadExecutorConfig({
        ...base,
        DATABASE_POOL_SIZE: '4',
        EXECUTOR_CRITICAL_CONCURRENCY: '0',
        EXECUTOR_LONG_CONCURRENCY: '0',
      }).DATABASE_POOL_SIZE,
    ).toBe(4);
  });

  it.each([
    [{ MYSQL_TOPOLOGY: 'sharded' }, 'MYSQL_TOPOLOGY'],
    [{ MYSQL_TOPOLOGY: 'vitess', SCHEDULER_PARTITIONS: '48' }, 'SCHEDULER_PARTITIONS'],
    [{ SCHEDULER_PARTITIONS: '0' }, 'SCHEDULER_PARTITIONS'],
    [{ VITESS_KEYSPACE: '' }, 'VITESS_KEYSPACE'],
    [{ EXECUTOR_TENANT_CACHE_MS: '-1' }, 'EXECUTOR_TENANT_CACHE_MS'],
    // Three lanes: two connections a claim and two besides.
    [{ DATABASE_POOL_SIZE: '7' }, 'DATABASE_POOL_SIZE'],
  ])('refuses %j naming %s', (env, variable) => {
    try {
      loadExecutorConfig({ ...base, ...env });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toContain(variable);
    }
  });
});
