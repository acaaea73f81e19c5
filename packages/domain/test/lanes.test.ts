import { describe, expect, it } from 'vitest';
import { createTaskSchema, laneFor } from '../src/index.ts';

const task = (over: Record<string, unknown>) => ({
  name: 't',
  schedule: { type: 'once', at: '2026-01-01T00:00:00Z' },
  target: { url: 'https://example.com/' },
  ...over,
});

describe('lanes', () => {
  it('puts critical jobs in the critical lane and long timeouts in the long lane', () => {
    expect(laneFor('critical', 5000)).toBe('critical');
    expect(laneFor('normal', 5000)).toBe('default');
    expect(laneFor('high', 600_000)).toBe('long');
  });

  it('keeps the critical lane’s reserved slots for critical tasks', () => {
    const bad = createTaskSchema.safeParse(task({ priority: 'normal', lane: 'critical' }));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['lane']);
    expect(createTaskSchema.safeParse(task({ priority: 'critical', lane: 'critical' })).success).toBe(true);
    expect(createTaskSchema.safeParse(task({ priority: 'low', lane: 'long' })).success).toBe(true);
  });
});
