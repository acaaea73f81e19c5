import { ConfigError } from '@dsched/runtime';
import { TEST_SECRETS_KEY } from '@dsched/testkit/secrets';
import { describe, expect, it } from 'vitest';
import { loadTaskApiConfig } from '../src/config.ts';

const base = {
  DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db',
  DSCHED_ADMIN_TOKEN: 'a'.repeat(20),
  DSCHED_SECRETS_KEY: TEST_SECRETS_KEY,
};

describe('task-api configuration: TASK_API_CORS_ORIGINS', () => {
  it('allows no origin by default and reads a comma-separated list', () => {
    expect(loadTaskApiConfig(base).TASK_API_CORS_ORIGINS).toEqual([]);
    expect(
      loadTaskApiConfig({
        ...base,
        TASK_API_CORS_ORIGINS: 'http://127.0.0.1:8081, https://console.example.com',
      }).TASK_API_CORS_ORIGINS,
    ).toEqual(['http://127.0.0.1:8081', 'https://console.example.com']);
  });

  it.each(['http://127.0.0.1:8081/ui', '127.0.0.1:8081', 'http://a.example,nonsense', '*'])(
    'refuses %j naming the variable',
    (value) => {
      try {
        loadTaskApiConfig({ ...base, TASK_API_CORS_ORIGINS: value });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as ConfigError).variables).toEqual(['TASK_API_CORS_ORIGINS']);
      }
    },
  );
});

describe('task-api configuration: TASK_API_PUBLIC_URL', () => {
  it('is absent by default (signal URLs name the origin a request came to) and loses a trailing slash', () => {
    expect(loadTaskApiConfig(base).TASK_API_PUBLIC_URL).toBeUndefined();
    expect(
      loadTaskApiConfig({ ...base, TASK_API_PUBLIC_URL: 'https://dsched.example.com/' }).TASK_API_PUBLIC_URL,
    ).toBe('https://dsched.example.com');
  });

  it.each(['dsched.example.com', 'ftp://dsched.example.com'])('refuses %j naming the variable', (value) => {
    try {
      loadTaskApiConfig({ ...base, TASK_API_PUBLIC_URL: value });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual(['TASK_API_PUBLIC_URL']);
    }
  });
});
