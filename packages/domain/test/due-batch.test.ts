import { describe, expect, it } from 'vitest';
import { jitteredRunAt } from '../src/calendar/jitter.ts';
import { type DueTask, planDueBatch } from '../src/decisions/due-batch.ts';
import type { Schedule } from '../src/model.ts';

const everyMinute: Schedule = {
  type: 'cron',
  expression: '* * * * *',
  timezone: 'UTC',
  dst: { repeated: 'first', skipped: 'shift' },
};
const plan = { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 };
const at = (hhmmss: string) => new Date(`2024-05-01T${hhmmss}.000Z`);
// Each task has three occurrences due before 12:02:10.
const clock = { now: at('12:00:30'), dueBefore: at('12:02:10') };

function task(id: string, overrides: Partial<DueTask> = {}): DueTask {
  return {
    id,
    schedule: everyMinute,
    nextFireAt: at('12:00:00'),
    misfirePolicy: 'fire_once',
    overlapPolicy: 'allow',
    jitterS: 0,
    previousRunLive: false,
    ...overrides,
  };
}

describe('planning a due batch', () => {
  it('plans every task when the jobs fit, with scheduled occurrence keys', () => {
    const out = planDueBatch([task('a'), task('b')], clock, { plan, maxJobs: 6 });
    expect(out.full).toBe(false);
    expect(out.jobs.map((j) => j.taskId)).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    expect(out.jobs[0]!.occurrence).toBe('2024-05-01T12:00:00.000Z');
    expect(out.advance).toEqual([
      { taskId: 'a', nextFireAt: at('12:03:00') },
      { taskId: 'b', nextFireAt: at('12:03:00') },
    ]);
  });

  it('stops at a task boundary when the job cap is reached, leaving the rest due', () => {
    const out = planDueBatch([task('a'), task('b'), task('c')], clock, { plan, maxJobs: 5 });
    expect(out.full).toBe(true);
    expect(out.advance.map((a) => a.taskId)).toEqual(['a']);
    expect(out.jobs).toHaveLength(3);
  });

  it('always plans the first task, even past the cap, so a batch moves forward', () => {
    const out = planDueBatch([task('a'), task('b')], clock, { plan, maxJobs: 1 });
    expect(out.advance.map((a) => a.taskId)).toEqual(['a']);
    expect(out.jobs).toHaveLength(3);
    expect(out.full).toBe(true);
  });

  it('passes the skipped ranges of a task whose previous run is live (overlap forbid)', () => {
    const out = planDueBatch([task('a', { overlapPolicy: 'forbid', previousRunLive: true })], clock, {
      plan,
      maxJobs: 10,
    });
    expect(out.jobs).toEqual([]);
    expect(out.skips.map((s) => [s.taskId, s.range.reason])).toContainEqual(['a', 'overlap']);
  });

  it('runs a jittered task’s jobs at their instants in the window, keyed by the nominal time', () => {
    const id = '01900000-0000-7000-8000-000000000042';
    const out = planDueBatch([task(id, { jitterS: 30 }), task('b')], clock, { plan, maxJobs: 6 });
    const jittered = out.jobs.filter((j) => j.taskId === id);
    expect(jittered.map((j) => j.occurrence)).toEqual(jittered.map((j) => j.scheduledFor.toISOString()));
    for (const j of jittered) expect(j.runAt).toEqual(jitteredRunAt(id, j.scheduledFor, 30));
    expect(jittered.some((j) => j.runAt.getTime() > j.scheduledFor.getTime())).toBe(true);
    for (const j of out.jobs.filter((j) => j.taskId === 'b')) expect(j.runAt).toEqual(j.scheduledFor);
  });
});
