import { describe, expect, it } from 'vitest';
import {
  BOX,
  criticalPath,
  duration,
  type Edge,
  LEVEL_ROWS,
  layout,
  levelRowsFor,
  nodeTimes,
  spanPercent,
} from '../src/graph.ts';

// The console's DAG layout, critical path and timeline spans (apps/console/src/graph.ts).

const diamond: Edge[] = [
  ['a', 'b'],
  ['a', 'c'],
  ['b', 'd'],
  ['c', 'd'],
];

describe('layout', () => {
  it('puts each node at the level of its longest path from a root, in id order within a level', () => {
    const lay = layout(['d', 'c', 'b', 'a', 'e'], [...diamond, ['a', 'e'], ['d', 'e']]);
    expect(Object.fromEntries(lay.depth)).toEqual({ a: 0, b: 1, c: 1, d: 2, e: 3 });
    expect(lay.levels).toBe(4);
    expect(lay.at.get('a')).toEqual({ x: 10, y: 10 });
    expect(lay.at.get('b')).toEqual({ x: 10 + BOX.col, y: 10 });
    expect(lay.at.get('c')).toEqual({ x: 10 + BOX.col, y: 10 + BOX.row });
    expect(lay.at.get('e')!.x).toBe(10 + 3 * BOX.col);
    expect(lay.width).toBe(20 + 4 * BOX.col - (BOX.col - BOX.w));
    expect(lay.height).toBe(20 + 2 * BOX.row - (BOX.row - BOX.h));
  });

  it('wraps a wide level into columns of `rows`, and the next level after them', () => {
    const ids = ['root', ...Array.from({ length: 95 }, (_, i) => `n${String(i).padStart(2, '0')}`), 'z'];
    const edges: Edge[] = ids.slice(1, -1).flatMap((id) => [['root', id] as Edge, [id, 'z'] as Edge]);
    const lay = layout(ids, edges, LEVEL_ROWS);
    expect(lay.at.get('n39')).toEqual({ x: 10 + BOX.col, y: 10 + 39 * BOX.row });
    expect(lay.at.get('n40')).toEqual({ x: 10 + 2 * BOX.col, y: 10 });
    expect(lay.at.get('n94')).toEqual({ x: 10 + 3 * BOX.col, y: 10 + 14 * BOX.row });
    expect(lay.at.get('z')!.x).toBe(10 + 4 * BOX.col);
    expect(lay.height).toBe(20 + LEVEL_ROWS * BOX.row - (BOX.row - BOX.h));
  });

  it('ignores a dependency on an unknown node and lays out 5,000 nodes', () => {
    expect(layout(['a'], [['x', 'a']]).depth.get('a')).toBe(0);
    const ids = Array.from({ length: 5000 }, (_, i) => `n${i}`);
    const edges: Edge[] = ids.slice(100).map((id, i) => [ids[i]!, id]);
    const lay = layout(ids, edges, levelRowsFor(ids.length));
    expect(lay.levels).toBe(50);
    expect(lay.at.size).toBe(5000);
  });

  it('gives a large run taller columns, so its drawing is not a thin strip', () => {
    expect(levelRowsFor(4)).toBe(LEVEL_ROWS);
    expect(levelRowsFor(5000)).toBe(100);
    expect(levelRowsFor(1_000_000)).toBe(200);
  });
});

describe('criticalPath', () => {
  it('goes back from the node that ended last through the parent that ended last', () => {
    const ends: Record<string, number> = { a: 10, b: 50, c: 20, d: 60 };
    expect(criticalPath(['a', 'b', 'c', 'd'], diamond, (id) => ends[id])).toEqual(['a', 'b', 'd']);
    ends.c = 55;
    expect(criticalPath(['a', 'b', 'c', 'd'], diamond, (id) => ends[id])).toEqual(['a', 'c', 'd']);
  });

  it('leaves out nodes with no end, and is empty when nothing ended', () => {
    const ends: Record<string, number | undefined> = { a: 10, b: 30, c: undefined, d: undefined };
    expect(criticalPath(['a', 'b', 'c', 'd'], diamond, (id) => ends[id])).toEqual(['a', 'b']);
    expect(criticalPath(['a', 'b'], [['a', 'b']], () => undefined)).toEqual([]);
  });
});

describe('nodeTimes', () => {
  it('reads ready from scheduledFor, attempts in order with their outcome, and the end', () => {
    const t = nodeTimes({
      scheduledFor: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:03.000Z',
      attempts: [
        {
          attempt: 2,
          startedAt: '2026-01-01T00:00:02.000Z',
          finishedAt: '2026-01-01T00:00:03.000Z',
          status: 200,
        },
        {
          attempt: 1,
          startedAt: '2026-01-01T00:00:00.500Z',
          finishedAt: '2026-01-01T00:00:01.000Z',
          status: 500,
        },
      ],
    });
    const at = (s: string) => Date.parse(`2026-01-01T00:00:${s}Z`);
    expect(t).toEqual({
      ready: at('00.000'),
      end: at('03.000'),
      attempts: [
        { attempt: 1, start: at('00.500'), end: at('01.000'), ok: false },
        { attempt: 2, start: at('02.000'), end: at('03.000'), ok: true },
      ],
    });
  });

  it('leaves a running attempt open and counts only 2xx as a success', () => {
    const t = nodeTimes({
      scheduledFor: '2026-01-01T00:00:00.000Z',
      attempts: [
        {
          attempt: 1,
          startedAt: '2026-01-01T00:00:01.000Z',
          finishedAt: '2026-01-01T00:00:02.000Z',
          status: 300,
        },
        { attempt: 2, startedAt: '2026-01-01T00:00:03.000Z' },
      ],
    });
    expect(t.end).toBeUndefined();
    expect(t.attempts.map((a) => [a.ok, a.end === undefined])).toEqual([
      [false, false],
      [false, true],
    ]);
  });
});

describe('spanPercent and duration', () => {
  it('places a span on the axis as percentages, clipped to it', () => {
    expect(spanPercent(25, 75, 0, 100)).toEqual({ left: 25, width: 50 });
    expect(spanPercent(-10, 50, 0, 200)).toEqual({ left: 0, width: 25 });
    expect(spanPercent(150, 300, 0, 200)).toEqual({ left: 75, width: 25 });
    expect(spanPercent(60, 40, 0, 100)).toEqual({ left: 60, width: 0 });
    expect(spanPercent(5, 5, 5, 5)).toEqual({ left: 0, width: 0 });
  });

  it('says a duration in the unit a person reads', () => {
    expect(duration(850)).toBe('850 ms');
    expect(duration(-3)).toBe('0 ms');
    expect(duration(12_340)).toBe('12.3 s');
    expect(duration(245_000)).toBe('4 m 05 s');
    expect(duration(7_800_000)).toBe('2 h 10 m');
  });
});
