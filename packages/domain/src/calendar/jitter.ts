import { createHash } from 'node:crypto';

// Jitter (a flexible window): a task with `jitterS` runs each occurrence at an instant in
// [t, t + jitterS s) instead of at t, so a 09:00 peak of tasks that allow a window spreads itself.
// The instant is a hash of the task id and the occurrence's nominal time, not a random draw: every
// scheduler replica computes the same one, and a rematerialised occurrence (a restart, a task edit
// that replaces its jobs) lands on the same instant again. The occurrence key and the
// `Dsched-Scheduled-For` header keep the nominal time t; only the job's run_at moves.

/** The widest window a task may ask for (a day, like EventBridge's flexible time window). */
export const MAX_JITTER_S = 86_400;

const TWO_POW_48 = 2 ** 48;

/**
 * How many milliseconds after its nominal time `at` the occurrence of `taskId` runs: uniform over
 * the whole milliseconds of [0, jitterS * 1000), and the same on every call.
 */
export function jitterOffsetMs(taskId: string, at: Date, jitterS: number): number {
  if (jitterS <= 0) return 0;
  const digest = createHash('sha256').update(`${taskId}\n${at.getTime()}`).digest();
  // 48 bits are uniform to well under a part in a billion over a window of at most 86,400,000 ms.
  return Math.floor((digest.readUIntBE(0, 6) / TWO_POW_48) * jitterS * 1000);
}

/** When the occurrence of `taskId` nominally at `at` runs. */
export function jitteredRunAt(taskId: string, at: Date, jitterS: number): Date {
  return jitterS > 0 ? new Date(at.getTime() + jitterOffsetMs(taskId, at, jitterS)) : at;
}
