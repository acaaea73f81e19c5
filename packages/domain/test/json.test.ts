import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from '../src/json.ts';

// Shuffles every object's keys (a document as another engine or another piece of code prints it).
function reordered(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v) => reordered(v, seed));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const order = keys.map((k, i) => [k, (i * 7919 + seed) % (keys.length + 3)] as const);
  order.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? 1 : -1));
  return Object.fromEntries(order.map(([k]) => [k, reordered((value as Record<string, unknown>)[k], seed)]));
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    const doc = { zeta: [{ b: 1, a: 2 }, 3], alpha: { y: null, b: 'x' } };
    expect(JSON.stringify(canonicalJson(doc))).toBe('{"alpha":{"b":"x","y":null},"zeta":[{"a":2,"b":1},3]}');
  });

  it('drops what JSON drops and prints what toJSON gives', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(canonicalJson({ b: undefined, a: at, c: () => 1 })).toEqual({ a: '2026-01-02T03:04:05.678Z' });
    // In order otherwise: the member is still dropped (toEqual would not see an undefined member).
    expect(Object.keys(canonicalJson({ a: 1, b: undefined, c: [2] }))).toEqual(['a', 'c']);
    expect(Object.keys(canonicalJson({ a: 1, b: () => 1 }))).toEqual(['a']);
  });

  it('keeps a member named __proto__ as a member', () => {
    const doc = JSON.parse('{"z":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const c = canonicalJson(doc);
    expect(JSON.stringify(c)).toBe('{"__proto__":{"polluted":true},"z":1}');
    expect((c as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('returns a document already in order as it is', () => {
    const doc = { a: { b: [1, { c: 2 }] }, d: 'e' };
    expect(canonicalJson(doc)).toBe(doc);
    const unsorted = { a: { d: 1, c: 2 } };
    expect(canonicalJson(unsorted)).not.toBe(unsorted);
    // A copy only where something changed: an array whose items are all in order is kept.
    const list = [{ a: 1 }, { b: 2 }];
    const outer = { z: list, a: 1 };
    expect((canonicalJson(outer) as { z: unknown }).z).toBe(list);
    const changed = [{ a: 1 }, { c: 1, b: 2 }];
    const copy = canonicalJson(changed);
    expect(copy).not.toBe(changed);
    expect(copy[0]).toBe(changed[0]);
    expect(JSON.stringify(copy)).toBe('[{"a":1},{"b":2,"c":1}]');
  });

  it('is what JSON.parse of its own text gives, whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const c = canonicalJson(reordered(value, seed));
        expect(JSON.stringify(c)).toBe(JSON.stringify(canonicalJson(value)));
        // Compared as text, which holds the key order too: JSON has no -0 (fc.jsonValue() makes it,
        // JSON.stringify writes it 0), so a value compared with its round trip would differ there.
        expect(JSON.stringify(canonicalJson(JSON.parse(JSON.stringify(c))))).toBe(JSON.stringify(c));
      }),
    );
  });
});

describe('sameJson', () => {
  it('ignores key order and nothing else', () => {
    expect(
      sameJson({ type: 'cron', expression: '* * * * *' }, { expression: '* * * * *', type: 'cron' }),
    ).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson(null, {})).toBe(false);
  });

  it('holds for any document against any reordering of it', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.nat(), (v, seed) => sameJson(v, reordered(v, seed))));
  });
});
