import { describe, expect, it } from 'vitest';
import { isId, newId, partitionOf } from '../src/index.ts';

describe('ids', () => {
  it('are UUIDv7, unique and ordered by creation even within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => newId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 50)) {
      expect(isId(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]!);
    }
  });

  it('carry their creation time in the first 48 bits', () => {
    const ms = Date.UTC(2030, 0, 1);
    const id = newId(ms);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBeGreaterThanOrEqual(ms);
  });

  it('spread over partitions', () => {
    const counts = new Array(64).fill(0);
    for (let i = 0; i < 64_000; i++) counts[partitionOf(newId(), 64)]++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });
});
