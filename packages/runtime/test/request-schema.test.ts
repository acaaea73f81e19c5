import { createTaskSchema, DschedError, patchTaskSchema } from '@dsched/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenApiDocument, parseWith, strictRequest } from '../src/index.ts';

// Unknown fields are refused by one schema-level mechanism (request-schema.ts), applied where
// requests are parsed and where they are documented.

function detailsOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DschedError);
    return (err as DschedError).details;
  }
  throw new Error('expected a 400');
}

const task = {
  name: 'n',
  schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' },
  target: { url: 'https://example.test/hook' },
};

describe('strict requests', () => {
  it('names every unknown field, nested ones with their path, beside other bad fields', () => {
    const details = detailsOf(() =>
      parseWith(createTaskSchema, {
        ...task,
        retyr: { maxAttempts: 1 },
        priority: 'urgent',
        schedule: { ...task.schedule, dst: { repeated: 'last', skiped: 'skip' } },
        target: { ...task.target, timeoutMS: 5000 },
        retry: { rules: [{ status: 409, action: 'retry', actoin: 'dead' }] },
      }),
    );
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'retyr', issue: 'unknown field' },
        { field: 'schedule.dst.skiped', issue: 'unknown field' },
        { field: 'target.timeoutMS', issue: 'unknown field' },
        { field: 'retry.rules.0.actoin', issue: 'unknown field' },
        expect.objectContaining({ field: 'priority' }),
      ]),
    );
    expect(details).toHaveLength(5);
  });

  it('accepts what the schema knows, keeps records open and leaves the original schema as it was', () => {
    const ok = parseWith(createTaskSchema, {
      ...task,
      target: { ...task.target, headers: { 'x-anything': '1' }, body: { free: { form: true } } },
      metadata: { any: { key: 1 } },
    });
    expect(ok.target?.timeoutMs).toBe(30_000);
    expect(ok.metadata).toEqual({ any: { key: 1 } });
    // the domain's own schema still strips (it is composed with .partial(), shapes are spread)
    expect(createTaskSchema.safeParse({ ...task, retyr: {} }).success).toBe(true);
    expect(strictRequest(createTaskSchema)).toBe(strictRequest(createTaskSchema));
  });

  it('keeps refinements, defaults, descriptions and component ids; an object declared open stays open', () => {
    const inner = z.object({ a: z.number().describe('an a') }).describe('the inner object');
    const schema = z
      .object({
        inner: inner.optional(),
        open: z.looseObject({ k: z.string() }).optional(),
        list: z.array(z.object({ v: z.number() })).default([]),
        piped: z
          .object({ s: z.string() })
          .transform((o) => o.s)
          .optional(),
      })
      .refine((o) => o.inner?.a !== 7, { path: ['inner', 'a'], message: 'not 7' })
      .meta({ id: 'Thing' });
    const strict = strictRequest(schema);
    expect(strict.parse({ open: { k: 'x', extra: 1 }, piped: { s: 'y' } })).toEqual({
      open: { k: 'x', extra: 1 },
      list: [],
      piped: 'y',
    });
    expect(detailsOf(() => parseWith(schema, { inner: { a: 7 } }))).toEqual([
      { field: 'inner.a', issue: 'not 7' },
    ]);
    expect(detailsOf(() => parseWith(schema, { list: [{ v: 1, w: 2 }], piped: { s: 'y', t: 1 } }))).toEqual([
      { field: 'list.0.w', issue: 'unknown field' },
      { field: 'piped.t', issue: 'unknown field' },
    ]);
    const json = z.toJSONSchema(strict, { io: 'input' }) as unknown as {
      $defs: { Thing: { properties: { inner: { description: string; properties: { a: object } } } } };
    };
    expect(json.$defs.Thing.properties.inner.description).toBe('the inner object');
    expect(json.$defs.Thing.properties.inner.properties.a).toMatchObject({ description: 'an a' });
  });

  it('refuses a null body instead of reading it as an empty one', () => {
    expect(detailsOf(() => parseWith(patchTaskSchema, null))).toEqual([
      expect.objectContaining({ field: '(body)' }),
    ]);
    expect(parseWith(patchTaskSchema, undefined)).toEqual({});
  });
});

/** Every object schema in a JSON schema that lists properties, with where it is. */
function objectsIn(json: unknown, at = '#'): { at: string; schema: Record<string, unknown> }[] {
  if (json === null || typeof json !== 'object') return [];
  const here = json as Record<string, unknown>;
  const found = here.properties !== undefined ? [{ at, schema: here }] : [];
  return found.concat(Object.entries(here).flatMap(([k, v]) => objectsIn(v, `${at}/${k}`)));
}

describe('the OpenAPI document of strict requests', () => {
  it('says additionalProperties: false on every object of a request body', () => {
    const doc = new OpenApiDocument({ title: 't', version: '1' }).add({
      method: 'post',
      path: '/v1/tasks',
      summary: 's',
      auth: 'tenant',
      body: createTaskSchema,
      responses: { 201: { description: 'ok' } },
    });
    const json = doc.toJSON() as {
      paths: {
        '/v1/tasks': { post: { requestBody: { content: { 'application/json': { schema: unknown } } } } };
      };
    };
    const body = json.paths['/v1/tasks'].post.requestBody.content['application/json'].schema;
    const objects = objectsIn(body);
    expect(objects.map((o) => o.at)).toEqual(
      expect.arrayContaining(['#', '#/properties/target', '#/properties/retry/properties/rules/items']),
    );
    for (const o of objects)
      expect({ at: o.at, additional: o.schema.additionalProperties }).toEqual({
        at: o.at,
        additional: false,
      });
  });
});
