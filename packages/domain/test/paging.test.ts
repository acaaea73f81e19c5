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
  queryFingerprint,
} from '../src/wire/paging.ts';

const item = (ms: number) => ({ id: newId(), scheduledFor: new Date(ms).toISOString() });

describe('page tokens', () => {
  it('round-trip the position and the range start', () => {
    const fp = queryFingerprint({ list: 'runs', taskId: 'x' });
    const position = {
      cursor: { at: new Date(1_700_000_000_123), id: newId() },
      from: new Date(1_600_000_000_000),
    };
    expect(decodePageToken(encodePageToken(fp, position), fp)).toEqual(position);
  });

  it.each([
    '',
    'not a token!',
    Buffer.from('{"v":2}').toString('base64url'),
    Buffer.from('[]').toString('base64url'),
  ])('refuse a malformed token %j naming pageToken', (token) => {
    const err = (() => {
      try {
        decodePageToken(token, 'fp');
      } catch (e) {
        return e as DschedError;
      }
    })();
    expect(err).toBeInstanceOf(DschedError);
    expect(err!.details).toEqual([{ field: 'pageToken', issue: 'malformed page token' }]);
  });

  it('refuse a token made by another query', () => {
    const token = encodePageToken('a', { cursor: firstCursor(new Date()), from: new Date(0) });
    expect(() => decodePageToken(token, 'b')).toThrow(/another query/);
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
      { fingerprint: 'f', from: new Date(0) },
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
          const fingerprint = 'f';
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
              fingerprint,
              from: new Date(0),
            });
            seen.push(...page.items.map((i) => i.id));
            if (!page.nextPageToken) break;
            cursor = decodePageToken(page.nextPageToken, fingerprint).cursor;
          }
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});
