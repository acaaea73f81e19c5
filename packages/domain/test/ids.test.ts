import { describe, expect, it } from 'vitest';
import { isId, newId, newIdBeside, partitionOf, partitionOfId } from '../src/index.ts';

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

  it('carry the partition they are made for, and stay unique and ordered', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => newId(1_700_000_000_000, i % 64));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    ids.forEach((id, i) => {
      expect(isId(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect(partitionOfId(id, 64)).toBe(i % 64);
    });
    // Both bytes: a partition past 255 is read back whole, and P only folds what is past it.
    expect(partitionOfId(newId(Date.now(), 1023), 1024)).toBe(1023);
    expect(partitionOfId(newId(Date.now(), 1023), 64)).toBe(1023 % 64);
    expect(newId(Date.now(), 0x1234).endsWith('1234')).toBe(true);
  });

  it('read the partition from the last two bytes of an id', () => {
    expect(partitionOfId('01890a5d-ac96-774b-bcce-b302099a0102', 65_536)).toBe(0x0102);
    expect(partitionOfId('01890a5d-ac96-774b-bcce-b302099a0102', 64)).toBe(0x0102 % 64);
    expect(partitionOfId('01890a5d-ac96-774b-bcce-b302099affff', 64)).toBe(63);
  });

  it('made without a partition carry a random one', () => {
    const counts = new Array(64).fill(0);
    for (let i = 0; i < 64_000; i++) counts[partitionOfId(newId(), 64)]++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });

  it('made beside another id carry its last two bytes, whatever P', () => {
    const job = newId(Date.now(), 0xbeef);
    const callback = newIdBeside(job, Date.now());
    expect(callback.slice(32)).toBe('beef');
    expect(callback).not.toBe(job);
    expect(partitionOfId(callback, 64)).toBe(partitionOfId(job, 64));
    expect(isId(callback)).toBe(true);
  });
});
