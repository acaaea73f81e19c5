import { type ServiceName, startService } from '@dsched/testkit/services';
import { describe, expect, it } from 'vitest';

// Bad configuration stops every service at start, with a message naming the variable.
const services: ServiceName[] = ['task-api', 'scheduler', 'executor', 'reconciler', 'archiver', 'job-api'];

describe('start-up configuration', () => {
  it.each(services)('%s exits non-zero naming DATABASE_URL when it is malformed', async (name) => {
    const svc = await startService(
      name,
      { DATABASE_URL: 'postgres://nope', DSCHED_ADMIN_TOKEN: 'x'.repeat(20) },
      { waitReady: false },
    );
    expect(await svc.exited).toBe(1);
    expect(svc.output()).toMatch(/DATABASE_URL/);
  });

  it('exits non-zero naming DATABASE_URL when the database does not answer', async () => {
    const svc = await startService(
      'scheduler',
      { DATABASE_URL: 'mysql://u:p@127.0.0.1:1/db' },
      { waitReady: false },
    );
    expect(await svc.exited).toBe(1);
    expect(svc.output()).toMatch(/DATABASE_URL: cannot reach/);
  });

  it('task-api exits naming DSCHED_ADMIN_TOKEN when it is missing', async () => {
    const svc = await startService(
      'task-api',
      { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db' },
      { waitReady: false },
    );
    expect(await svc.exited).toBe(1);
    expect(svc.output()).toMatch(/DSCHED_ADMIN_TOKEN/);
  });

  it.each(['task-api', 'executor'] as const)(
    '%s exits naming DSCHED_SECRETS_KEY when it is empty or malformed, without showing it',
    async (name) => {
      for (const value of ['', 'k1:not-a-32-byte-key-at-all']) {
        const svc = await startService(
          name,
          {
            DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db',
            DSCHED_ADMIN_TOKEN: 'a'.repeat(20),
            DSCHED_SECRETS_KEY: value,
          },
          { waitReady: false },
        );
        expect(await svc.exited).toBe(1);
        expect(svc.output()).toMatch(/DSCHED_SECRETS_KEY: /);
        if (value) expect(svc.output()).not.toContain('not-a-32-byte-key');
      }
    },
  );

  it.each([
    ['task-api', 'TASK_API_CORS_ORIGINS', 'http://127.0.0.1:8081/ui'],
    ['job-api', 'CONSOLE_TASK_API_URL', 'ftp://127.0.0.1:8080'],
  ] as const)('%s exits naming %s when it is malformed', async (name, variable, value) => {
    const svc = await startService(
      name,
      {
        DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db',
        DSCHED_ADMIN_TOKEN: 'a'.repeat(20),
        [variable]: value,
      },
      { waitReady: false },
    );
    expect(await svc.exited).toBe(1);
    expect(svc.output()).toMatch(new RegExp(`${variable}: `));
  });

  it.each(services)(
    '%s exits naming the OTEL_* variable of an unknown sampler or a ratio of 2',
    async (name) => {
      for (const [variable, env, message] of [
        ['OTEL_TRACES_SAMPLER', { OTEL_TRACES_SAMPLER: 'sometimes' }, 'must be one of always_on'],
        [
          'OTEL_TRACES_SAMPLER_ARG',
          { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
          'must be a ratio from 0 to 1',
        ],
      ] as const) {
        const svc = await startService(
          name,
          { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db', DSCHED_ADMIN_TOKEN: 'a'.repeat(20), ...env },
          { waitReady: false },
        );
        expect(await svc.exited).toBe(1);
        expect(svc.output()).toMatch(new RegExp(`${variable}: ${message}`));
      }
    },
  );
});
