import { Writable } from 'node:stream';
import { newSecretsKey } from '@dsched/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  authThrottleConfigShape,
  ConfigError,
  createLogger,
  loadConfig,
  mysqlConfigShape,
  secretsConfigShape,
} from '../src/index.ts';

describe('loadConfig', () => {
  const schema = z.object({ ...mysqlConfigShape });

  it('names a missing variable', () => {
    expect(() => loadConfig(schema, {})).toThrow(/DATABASE_URL/);
  });

  it('names a malformed variable and every bad one', () => {
    try {
      loadConfig(schema, { DATABASE_URL: 'postgres://x/y', DATABASE_POOL_SIZE: 'many' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables.sort()).toEqual(['DATABASE_POOL_SIZE', 'DATABASE_URL']);
    }
  });

  it('parses and applies defaults', () => {
    expect(loadConfig(schema, { DATABASE_URL: 'mysql://u:p@h:3306/db' })).toEqual({
      DATABASE_URL: 'mysql://u:p@h:3306/db',
      DATABASE_POOL_SIZE: 10,
      MYSQL_TOPOLOGY: 'single',
      SCHEDULER_PARTITIONS: 64,
      VITESS_KEYSPACE: 'dsched',
    });
  });
});

describe('logger', () => {
  it('redacts Authorization and secrets wherever they are', () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _enc, cb) {
        out += chunk.toString();
        cb();
      },
    });
    const logger = createLogger('test', 'info', sink);
    logger.info(
      {
        req: { headers: { authorization: 'Bearer dsk_secret' } },
        tenant: { apiKey: 'dsk_k', signingSecret: 'whsec_s' },
      },
      'hello',
    );
    expect(out).toContain('hello');
    expect(out).not.toContain('dsk_secret');
    expect(out).not.toContain('dsk_k');
    expect(out).not.toContain('whsec_s');
    expect(out).toContain('[redacted]');
  });
});

describe('the secrets key', () => {
  const schema = z.object({ ...secretsConfigShape });

  it('is required, and a malformed one stops the service naming the variable, not the key', () => {
    for (const value of [undefined, 'short', `a:${Buffer.alloc(31).toString('base64')}`]) {
      try {
        loadConfig(schema, value === undefined ? {} : { DSCHED_SECRETS_KEY: value });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as ConfigError).variables).toEqual(['DSCHED_SECRETS_KEY']);
        if (value) expect((err as Error).message).not.toContain(value);
      }
    }
  });

  it('parses a keyring whose first key seals', () => {
    const [a, b] = [newSecretsKey(), newSecretsKey()];
    const { DSCHED_SECRETS_KEY: ring } = loadConfig(schema, { DSCHED_SECRETS_KEY: `b:${b},a:${a}` });
    expect(ring.current.id).toBe('b');
    expect(ring.byId.size).toBe(2);
  });
});

describe('TRUST_PROXY', () => {
  const schema = z.object({ ...authThrottleConfigShape });
  const parse = (TRUST_PROXY?: string) => loadConfig(schema, { TRUST_PROXY }).TRUST_PROXY;

  it('trusts nobody unless told, a hop count, or a list of addresses and CIDRs', () => {
    expect(parse(undefined)).toBe(false);
    expect(parse('')).toBe(false);
    expect(parse('1')).toBe(1);
    expect(parse('10.0.0.0/8, 127.0.0.1,fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
  });

  it('refuses what is neither, naming the variable and the entry', () => {
    for (const bad of ['true', '0', '99', '10.0.0.0/33', 'ingress.local', '10.0.0.1/8/2']) {
      expect(() => parse(bad), bad).toThrow(ConfigError);
      expect(() => parse(bad), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => parse('127.0.0.1,ingress.local')).toThrow(/ingress\.local/);
  });
});
