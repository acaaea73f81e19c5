import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DschedError } from '../src/errors.ts';
import { newId } from '../src/ids.ts';
import {
  compareNewestFirst,
  decodePageToken,
  encodePageToken,
  firstCursor,
  mergeNewestFirst,
  type PageQuery,
  positionKey,
  readPositionKey,
} from '../src/wire/paging.ts';

const item = (ms: number) => ({ id: newId(), scheduledFor: new Date(ms).toISOString() });

const RUNS: PageQuery = {
  list: 'GET /v1/tasks/{id}/runs',
  filters: { tenant: 't1', task: 'x', from: undefined },
};
const anyKey = (key: unknown[]) => key;

function refusal(run: () => unknown): DschedError | undefined {
  try {
    run();
  } catch (e) {
    return e as DschedError;
  }
  return undefined;
}

describe('page tokens', () => {
  it('round-trip the position and the range start', () => {
    const position = {
      cursor: { at: new Date(1_700_000_000_123), id: newId() },
      from: new Date(1_600_000_000_000),
    };
    expect(decodePageToken(encodePageToken(RUNS, positionKey(position)), RUNS, readPositionKey)).toEqual(
      position,
    );
  });

  it('are one format, whatever the list: base64url of the version, the query and the key', () => {
    const token = encodePageToken({ list: 'GET /v1/tasks', filters: { tenant: 't1' } }, ['k']);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))).toMatchObject({ v: 2, k: ['k'] });
  });

  it.each([
    '',
    'not a token!',
    Buffer.from('{"v":2}').toString('base64url'),
    Buffer.from('[]').toString('base64url'),
    // The jobs lists' tokens before the one format: refused, not read as another position.
    Buffer.from('{"v":1,"q":"x","t":1,"i":"00000000-0000-0000-0000-000000000000","f":0}').toString(
      'base64url',
    ),
  ])('refuse a malformed token %j naming pageToken', (token) => {
    const err = refusal(() => decodePageToken(token, RUNS, readPositionKey));
    expect(err).toBeInstanceOf(DschedError);
    expect(err!.details).toEqual([{ field: 'pageToken', issue: 'malformed page token' }]);
  });

  it('refuse a key this list does not read, naming pageToken', () => {
    const token = encodePageToken(RUNS, ['not a time', newId(), 0]);
    expect(refusal(() => decodePageToken(token, RUNS, readPositionKey))!.details).toEqual([
      { field: 'pageToken', issue: 'malformed page token' },
    ]);
  });

  it.each<[string, PageQuery]>([
    ['another list', { list: 'GET /v1/jobs', filters: { tenant: 't1', task: 'x', from: undefined } }],
    ['another tenant', { ...RUNS, filters: { ...RUNS.filters, tenant: 't2' } }],
    ['another filter value', { ...RUNS, filters: { ...RUNS.filters, from: '2026-01-01T00:00:00Z' } }],
    ['one filter more', { ...RUNS, filters: { ...RUNS.filters, state: 'dead' } }],
  ])('refuse a token made for %s, naming pageToken', (_, other) => {
    const token = encodePageToken(RUNS, positionKey({ cursor: firstCursor(new Date()), from: new Date(0) }));
    const err = refusal(() => decodePageToken(token, other, anyKey));
    expect(err!.details).toEqual([{ field: 'pageToken', issue: 'the page token belongs to another query' }]);
    expect(decodePageToken(token, RUNS, anyKey)).toHaveLength(3);
  });
});

describe('merging live and archived slices', () => {
  it('takes a job present in both once and keeps newest-first order', () => {
    const [a, b, c] = [item(3000), item(2000), item(1000)];
    const page = mergeNewestFirst(
      [
        { items: [a!, c!], more: false },
        { items: [b!, c!], more: false },
      ],
      10,
      { query: RUNS, from: new Date(0) },
    );
    expect(page.items.map((i) => i.id)).toEqual([a!.id, b!.id, c!.id]);
    expect(page.nextPageToken).toBeUndefined();
  });

  // Paging a list split over two sources (with overlap) returns every item exactly once, in
  // order, whatever the page size and the split: no gap, no repeat.
  it('pages through any split without gaps or repeats', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.constantFrom('live', 'archived', 'both')), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 9 }),
        (spec, limit) => {
          const all = spec.map(([t, where]) => ({ ...item(t * 1000), where }));
          const expected = [...all].sort(compareNewestFirst).map((i) => i.id);
          let cursor = firstCursor(new Date(10_000_000));
          const seen: string[] = [];
          for (let guard = 0; guard < 200; guard++) {
            const before = (i: { scheduledFor: string; id: string }) =>
              compareNewestFirst(i, { scheduledFor: cursor.at.toISOString(), id: cursor.id }) > 0;
            const slice = (where: string) => {
              const rows = all
                .filter((i) => (i.where === where || i.where === 'both') && before(i))
                .sort(compareNewestFirst);
              return { items: rows.slice(0, limit), more: rows.length > limit };
            };
            const page = mergeNewestFirst([slice('live'), slice('archived')], limit, {
              query: RUNS,
              from: new Date(0),
            });
            seen.push(...page.items.map((i) => i.id));
            if (!page.nextPageToken) break;
            cursor = decodePageToken(page.nextPageToken, RUNS, readPositionKey).cursor;
          }
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});
