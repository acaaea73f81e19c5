import { request } from 'node:http';
import { type Fleet, startFleet } from '@dsched/testkit/fleet';
import { useTestStores } from '@dsched/testkit/test-stores';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One regression test per case schemathesis found (test/fuzz/schemathesis.test.ts), against
// task-api and job-api as processes: what the served document says, and what the service does
// with the request the fuzzer sent. Each document check validates the request with the document's
// own schema (ajv, draft 2020-12), as a generated client or the fuzzer reads it.

const ADMIN = 'contract-admin-token-0123456789abcdef';
const { db, ks } = useTestStores(import.meta.url);
let fleet: Fleet;
let taskApi: string;
let jobApi: string;
let apiKey: string;
let tenantId: string;
type Doc = { paths: Record<string, Record<string, Record<string, unknown>>>; components: unknown };
const docs: Record<'task' | 'job', Doc> = {} as never;

beforeAll(async () => {
  fleet = await startFleet(
    { DATABASE_URL: db.url, CASSANDRA_KEYSPACE: ks.keyspace, DSCHED_ADMIN_TOKEN: ADMIN },
    ['task-api', 'job-api'],
  );
  taskApi = fleet.service('task-api').url;
  jobApi = fleet.service('job-api').url;
  const created = await call(taskApi, 'POST', '/v1/admin/tenants', { name: 'contract' }, ADMIN);
  ({ apiKey, id: tenantId } = created.body as { apiKey: string; id: string });
  docs.task = (await (await fetch(`${taskApi}/openapi.json`)).json()) as Doc;
  docs.job = (await (await fetch(`${jobApi}/openapi.json`)).json()) as Doc;
});
afterAll(async () => {
  await fleet?.stop();
});

async function call(base: string, method: string, path: string, body?: unknown, token = apiKey) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** node:http, since fetch refuses TRACE. */
function rawCall(base: string, method: string, path: string) {
  return new Promise<{ status: number; allow: string | undefined; body: unknown }>((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method, headers: { authorization: `Bearer ${apiKey}` } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            allow: res.headers.allow,
            body: JSON.parse(text) as unknown,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
function documentAccepts(api: 'task' | 'job', method: string, path: string, body: unknown): boolean {
  const op = docs[api].paths[path]?.[method] as {
    requestBody: { content: { 'application/json': { schema: object } } };
  };
  const schema = op.requestBody.content['application/json'].schema;
  return ajv.validate({ ...schema, components: docs[api].components }, body) as boolean;
}
function queryParam(api: 'task' | 'job', path: string, name: string): { schema: { pattern?: string } } {
  const op = docs[api].paths[path]?.get as { parameters: { name: string; schema: { pattern?: string } }[] };
  const found = op.parameters.find((p) => p.name === name);
  if (!found) throw new Error(`no ${name} on GET ${path}`);
  return found;
}
const errorShape = {
  error: { code: expect.any(String), message: expect.any(String), details: expect.any(Array) },
};
const onceTask = (url: string) => ({
  name: 'contract',
  schedule: { type: 'once', at: '2030-01-01T00:00:00Z' },
  target: { url },
});

describe('undeclared methods (schemathesis ST204: QUERY answered 400, TRACE 404)', () => {
  it.each([
    ['task', 'QUERY', '/v1/tasks/0', 'GET, HEAD, PATCH, DELETE'],
    ['task', 'TRACE', '/v1/tasks', 'POST, GET, HEAD'],
    ['job', 'QUERY', '/v1/jobs/0', 'GET, HEAD'],
    ['job', 'TRACE', '/v1/dlq/retry', 'POST'],
  ] as const)('%s-api %s %s answers 405 with Allow and the error shape', async (api, method, path, allow) => {
    const res = await rawCall(api === 'task' ? taskApi : jobApi, method, path);
    expect(res.status).toBe(405);
    expect(res.allow?.split(', ').sort()).toEqual(allow.split(', ').sort());
    expect(res.body).toMatchObject(errorShape);
  });

  it('an unknown path is still a 404', async () => {
    const res = await rawCall(taskApi, 'GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
  });
});

describe('documented status codes (schemathesis ST103: the admin routes answered an undocumented 401)', () => {
  it('every authenticated operation of both documents declares 401 and 429', () => {
    for (const doc of [docs.task, docs.job])
      for (const [path, ops] of Object.entries(doc.paths))
        for (const [method, op] of Object.entries(ops)) {
          if ((op.security as unknown[]).length === 0) continue;
          expect(Object.keys(op.responses as object), `${method} ${path}`).toEqual(
            expect.arrayContaining(['401', '429']),
          );
        }
  });

  it('an admin route answers 401 without the token and 403 with a tenant key, both documented', async () => {
    const path = `/v1/admin/tenants/${tenantId}`;
    const none = await rawCall(taskApi, 'GET', path).catch(() => undefined);
    expect(none?.status).toBe(403); // rawCall sends the tenant's key
    const res = await fetch(`${taskApi}${path}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject(errorShape);
    expect(Object.keys(docs.task.paths['/v1/admin/tenants/{id}']?.get?.responses as object)).toEqual(
      expect.arrayContaining(['401', '403']),
    );
  });
});

describe('a required body (schemathesis ST201: PATCH /v1/admin/tenants/{id} without one answered 200)', () => {
  it('is refused naming (body), and the tenant is unchanged', async () => {
    const before = await call(taskApi, 'GET', `/v1/admin/tenants/${tenantId}`, undefined, ADMIN);
    const res = await call(taskApi, 'PATCH', `/v1/admin/tenants/${tenantId}`, undefined, ADMIN);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: {
        code: 'invalid_argument',
        details: expect.arrayContaining([expect.objectContaining({ field: '(body)' })]),
      },
    });
    expect((await call(taskApi, 'GET', `/v1/admin/tenants/${tenantId}`, undefined, ADMIN)).body).toEqual(
      before.body,
    );
  });
});

describe('formats stated in the schema (schemathesis ST202: schema-valid requests refused by code)', () => {
  it.each(['', 'ftp://127.0.0.1/x', 'not a url'])(
    'target.url %j: the document and the API refuse it',
    async (url) => {
      expect(documentAccepts('task', 'post', '/v1/tasks', onceTask(url))).toBe(false);
      const res = await call(taskApi, 'POST', '/v1/tasks', onceTask(url));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: { details: expect.arrayContaining([expect.objectContaining({ field: 'target.url' })]) },
      });
    },
  );

  it('a workflow node with target.url "" is refused by the document too', () => {
    const body = { name: 'w', nodes: [{ id: 'a', target: { url: '' } }] };
    expect(documentAccepts('task', 'post', '/v1/workflows', body)).toBe(false);
    expect(
      documentAccepts('task', 'post', '/v1/workflows', {
        ...body,
        nodes: [{ id: 'a', target: { url: 'http://x' } }],
      }),
    ).toBe(true);
  });

  it('a good target.url is accepted by both', async () => {
    expect(documentAccepts('task', 'post', '/v1/tasks', onceTask('http://127.0.0.1:9/x'))).toBe(true);
    expect((await call(taskApi, 'POST', '/v1/tasks', onceTask('http://127.0.0.1:9/x'))).status).toBe(201);
  });

  it.each(['\u0014', '', '1h90', 'm'])(
    'an interval every of %j: the document and the API refuse it',
    async (every) => {
      const body = { schedule: { type: 'interval', every } };
      expect(documentAccepts('task', 'post', '/v1/schedules/preview', body)).toBe(false);
      const res = await call(taskApi, 'POST', '/v1/schedules/preview', body);
      expect(res.status).toBe(400);
      // Named once, though the pattern and the interval's own check both refuse it.
      expect(res.body).toMatchObject({
        error: {
          details: [{ field: 'schedule.every', issue: 'expected a duration such as "90m" or "1h30m"' }],
        },
      });
    },
  );

  it('POST /v1/dlq/retry {}: the document says jobIds or taskId, and the API refuses it', async () => {
    expect(documentAccepts('job', 'post', '/v1/dlq/retry', {})).toBe(false);
    expect(
      documentAccepts('job', 'post', '/v1/dlq/retry', { taskId: '01a233b0-bf79-767d-9b09-0f32c3e3ade3' }),
    ).toBe(true);
    expect((await call(jobApi, 'POST', '/v1/dlq/retry', {})).status).toBe(400);
  });

  it('complete with outcome "succeeded" and an error: refused by the document as by the API', async () => {
    const body = { attempt: 1, outcome: 'succeeded', error: 'x' };
    expect(documentAccepts('job', 'post', '/v1/jobs/{id}/complete', body)).toBe(false);
    expect(documentAccepts('job', 'post', '/v1/jobs/{id}/complete', { ...body, outcome: 'failed' })).toBe(
      true,
    );
  });

  it.each([
    ['task', '/v1/tasks'],
    ['job', '/v1/jobs'],
    ['job', '/v1/dlq'],
  ] as const)(
    '%s-api GET %s: pageToken has a pattern, and a token outside it is a 400 naming it',
    async (api, path) => {
      const base = api === 'task' ? taskApi : jobApi;
      const { pattern } = queryParam(api, path, 'pageToken').schema;
      expect(pattern).toBeDefined();
      expect(new RegExp(pattern ?? '').test('a b')).toBe(false);
      const res = await call(base, 'GET', `${path}?pageToken=a%20b`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: { details: expect.arrayContaining([expect.objectContaining({ field: 'pageToken' })]) },
      });
    },
  );
});

describe('stateful links (schemathesis: "no links point to these operations")', () => {
  it('POST /v1/tasks and POST /v1/workflows link their 201 id to the operations under it', () => {
    const links = (path: string) => {
      const responses = (docs.task.paths[path]?.post?.responses ?? {}) as Record<string, { links?: object }>;
      return Object.keys(responses['201']?.links ?? {});
    };
    expect(links('/v1/tasks')).toEqual(
      expect.arrayContaining(['getV1TasksId', 'patchV1TasksId', 'deleteV1TasksId', 'postV1TasksIdTrigger']),
    );
    expect(links('/v1/workflows')).toEqual(
      expect.arrayContaining(['getV1WorkflowsId', 'postV1WorkflowsIdCancel']),
    );
    expect(links('/v1/admin/tenants')).toEqual(expect.arrayContaining(['getV1AdminTenantsId']));
  });
});
