import {
  bulkRedriveSchema,
  completeRequestSchema,
  createTaskSchema,
  DURATION_TEXT,
  decodePageToken,
  encodePageToken,
  newId,
  type PageQuery,
  pageTokenParam,
  parseDuration,
  positionKey,
} from '@dsched/domain';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictRequest } from '../src/index.ts';

// The document and the code agree (the property behind the cases schemathesis found): whatever a
// request schema accepts, the JSON Schema it is documented as accepts too (a client generated from
// the document never refuses a request the API takes), and where the document states a syntax
// (durations, page tokens) it is exactly the code's.

const ajv = new Ajv2020({ strict: false, allErrors: true });
const documented = (schema: z.ZodType) =>
  ajv.compile(
    z.toJSONSchema(strictRequest(schema), { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
  );
const accepts = (schema: z.ZodType, value: unknown) => strictRequest(schema).safeParse(value).success;

const urlish = fc.oneof(
  fc.string(),
  fc.webUrl(),
  fc
    .tuple(fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', ''), fc.string())
    .map(([a, b]) => a + b),
);
const durationish = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc
    .array(fc.tuple(fc.nat(999), fc.constantFrom('d', 'h', 'm', 's', 'x', '')), { maxLength: 5 })
    .map((parts) => parts.map(([n, u]) => `${n}${u}`).join('')),
);

describe('request schemas and their documents, for any input', () => {
  const taskDoc = documented(createTaskSchema);
  const task = (url: string, every: string) => ({
    name: 'p',
    schedule: { type: 'interval', every },
    target: { url },
  });

  it('a task the API accepts is accepted by its document (any target.url, any interval every)', () => {
    fc.assert(
      fc.property(urlish, durationish, (url, every) => {
        const body = task(url, every);
        if (accepts(createTaskSchema, body)) expect(taskDoc(body), JSON.stringify(body)).toBe(true);
      }),
      { numRuns: 2000, seed: 18 },
    );
  });

  it('the document refuses a target.url of "" or of another scheme, as the API does', () => {
    fc.assert(
      fc.property(fc.constantFrom('', 'ftp://x', 'mailto:a@b', 'javascript:1', ' http://x'), (url) => {
        expect(taskDoc(task(url, '1m'))).toBe(false);
        expect(accepts(createTaskSchema, task(url, '1m'))).toBe(false);
      }),
    );
  });

  it('the duration pattern is exactly the parser: matched iff parseDuration reads it', () => {
    fc.assert(
      fc.property(durationish, (text) => {
        // Past 15 digits a well-formed duration overflows, which the range check refuses anyway.
        fc.pre(!/\d{7,}/.test(text));
        expect(DURATION_TEXT.test(text), JSON.stringify(text)).toBe(parseDuration(text) !== null);
      }),
      { numRuns: 5000, seed: 18 },
    );
  });

  it('every token the API issues fits the documented pageToken; one outside it is refused', () => {
    const param = z.object({ pageToken: pageTokenParam() });
    const doc = documented(param);
    const query = (list: string, tenant: string): PageQuery => ({ list, filters: { tenant } });
    // A jobs list's key, and the longest: a node list's, a node id of up to 100 characters and a bucket.
    const jobsKey = fc
      .tuple(
        fc.date({ min: new Date(0), max: new Date(2 ** 42), noInvalidDate: true }),
        fc.date({ min: new Date(0), max: new Date(2 ** 42), noInvalidDate: true }),
      )
      .map(([at, from]) => positionKey({ cursor: { at, id: newId() }, from }));
    const nodeKey = fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9._~:-]{1,100}$/), fc.nat())
      .map(([id, bucket]) => [id, bucket]);
    fc.assert(
      fc.property(fc.oneof(jobsKey, nodeKey), fc.string({ maxLength: 40 }), (key, tenant) => {
        const q = query('GET /v1/workflows/{id}/nodes', tenant);
        const token = encodePageToken(q, key);
        expect(doc({ pageToken: token })).toBe(true);
        expect(accepts(param, { pageToken: token })).toBe(true);
        expect(decodePageToken(token, q, (k) => k)).toEqual(key);
      }),
      { seed: 18 },
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (text) => {
        if (doc({ pageToken: text })) return;
        expect(accepts(param, { pageToken: text })).toBe(false);
        expect(() => decodePageToken(text, query('GET /v1/jobs', 't'), (k) => k)).toThrow();
      }),
      { numRuns: 2000, seed: 18 },
    );
  });

  it('the field pairs stated with anyOf: the document refuses exactly what the refinement refuses', () => {
    const redrive = documented(bulkRedriveSchema);
    const complete = documented(completeRequestSchema);
    fc.assert(
      fc.property(
        fc.record(
          { jobIds: fc.array(fc.uuid(), { minLength: 1, maxLength: 3 }), taskId: fc.uuid() },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            attempt: fc.integer({ min: 1, max: 5 }),
            outcome: fc.constantFrom('succeeded', 'failed'),
            error: fc.string({ maxLength: 20 }),
          },
          { requiredKeys: ['attempt', 'outcome'] },
        ),
        (r, c) => {
          expect(redrive(r)).toBe(accepts(bulkRedriveSchema, r));
          expect(complete(c)).toBe(accepts(completeRequestSchema, c));
        },
      ),
      { numRuns: 1000, seed: 18 },
    );
  });
});
