import { ConfigError } from '@dsched/runtime';
import { describe, expect, it } from 'vitest';
import { loadJobApiConfig } from '../src/config.ts';

const base = { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db' };

describe('job-api configuration: CONSOLE_TASK_API_URL', () => {
  it('is optional, and kept without a trailing slash', () => {
    expect(loadJobApiConfig(base).CONSOLE_TASK_API_URL).toBeUndefined();
    expect(
      loadJobApiConfig({ ...base, CONSOLE_TASK_API_URL: 'https://api.example.com/' }).CONSOLE_TASK_API_URL,
    ).toBe('https://api.example.com');
  });

  it.each(['ftp://127.0.0.1:8080', 'not a url'])('refuses %j naming the variable', (value) => {
    try {
      loadJobApiConfig({ ...base, CONSOLE_TASK_API_URL: value });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual(['CONSOLE_TASK_API_URL']);
    }
  });
});
