import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binToId, idToBin } from '../src/ids.ts';
import { binToTrace, traceToBin, untracedContext } from '../src/trace-context.ts';

// Ids as BINARY(16): the digit-by-digit reader gives the bytes the plain hex parse gives, for any
// UUID in either case, and anything else falls through to that parse unchanged.
const plain = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');

describe('idToBin', () => {
  it('reads every UUID to its 16 bytes, and back', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.boolean(), (uuid, upper) => {
        const id = upper ? uuid.toUpperCase() : uuid;
        expect(idToBin(id).equals(plain(id))).toBe(true);
        expect(binToId(idToBin(id))).toBe(uuid.toLowerCase());
      }),
    );
  });

  it('gives what the plain parse gives for what is not a canonical UUID', () => {
    for (const odd of [
      '',
      '0190000000007000800000000000000100aa', // 36 digits, no dashes
      '01900000-0000-7000-8000-00000000000g', // a non-hex digit
      '01900000-0000-7000-8000-0000000000é1',
      '0190-0000',
    ]) {
      expect(idToBin(odd).equals(plain(odd))).toBe(true);
    }
  });
});

describe('untracedContext', () => {
  it('gives every job a new valid, unsampled trace, past the pooled random bytes it reads from', () => {
    const contexts = Array.from({ length: 3000 }, () => untracedContext());
    expect(new Set(contexts.map((c) => c.traceId)).size).toBe(contexts.length);
    expect(new Set(contexts.map((c) => c.spanId)).size).toBe(contexts.length);
    for (const c of contexts) {
      expect(c.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(c.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(c.traceId).not.toMatch(/^0+$/);
      expect(c.sampled).toBe(false);
      expect(binToTrace(traceToBin(c))).toEqual(c);
    }
  });
});
