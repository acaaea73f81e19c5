import type { JobKind } from '../model.ts';

// The occurrence key: with task_id, the unique key of a job row (invariant 2). A scheduled
// occurrence is its fire time, so two schedulers computing the same fire time collide on the key;
// trigger-now and backfill get keys of their own so they never collide with the schedule's.
export function occurrenceKey(kind: JobKind, at: Date, discriminator?: string): string {
  const time = at.toISOString();
  switch (kind) {
    case 'scheduled':
      return time;
    case 'backfill':
      return `backfill:${time}`;
    case 'trigger':
    case 'workflow':
    case 'callback':
      if (!discriminator) throw new Error(`${kind} occurrences need a discriminator`);
      return `${kind}:${discriminator}`;
  }
}
