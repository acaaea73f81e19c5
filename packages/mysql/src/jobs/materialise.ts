import { newId, nextFireAfter, occurrenceKey, type Schedule } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { scheduleFromJson } from '../tasks/task-store.ts';
import { withTransaction } from '../transaction.ts';

const SELECT_DUE = loadSql(import.meta.url, './select-due-tasks.sql');
const INSERT_JOBS = loadSql(import.meta.url, './insert-jobs.sql');

export interface MaterialiseResult {
  dueTasks: number;
  jobsInserted: number;
}

/**
 * One batch of the scheduler tick: reads and locks due tasks, inserts one job per occurrence up
 * to `dueBefore`, and advances each task's next_fire_at, all in one transaction.
 */
export async function materialiseDueBatch(
  pool: Pool,
  args: { partitions: number[]; dueBefore: Date; limit: number },
): Promise<MaterialiseResult> {
  return withTransaction(pool, async (conn) => {
    const [tasks] = await conn.query<RowDataPacket[]>(SELECT_DUE, [
      args.partitions,
      args.dueBefore,
      args.limit,
    ]);
    if (tasks.length === 0) return { dueTasks: 0, jobsInserted: 0 };
    const jobRows: unknown[][] = [];
    const advance: [Buffer, Date | null][] = [];
    for (const t of tasks) {
      const schedule: Schedule = scheduleFromJson(t.schedule);
      const retry = readJson<{ maxAttempts: number }>(t.retry);
      let fireAt: Date | null = t.next_fire_at;
      while (fireAt !== null && fireAt.getTime() <= args.dueBefore.getTime()) {
        jobRows.push([
          idToBin(newId()),
          t.tenant_id,
          t.id,
          occurrenceKey('scheduled', fireAt),
          'scheduled',
          fireAt,
          t.priority,
          t.lane,
          'pending',
          0,
          retry.maxAttempts,
          fireAt,
          typeof t.target === 'string' ? t.target : JSON.stringify(t.target),
          typeof t.retry === 'string' ? t.retry : JSON.stringify(t.retry),
          new Date(),
          new Date(),
        ]);
        fireAt = nextFireAfter(schedule, fireAt);
      }
      advance.push([t.id, fireAt]);
    }
    const [res] = await conn.query(INSERT_JOBS, [jobRows]);
    const cases = advance.map(() => 'WHEN ? THEN ?').join(' ');
    await conn.query(
      `UPDATE tasks SET next_fire_at = CASE id ${cases} END, updated_at = NOW(3) WHERE id IN (?)`,
      [...advance.flat(), advance.map(([id]) => id)],
    );
    return { dueTasks: tasks.length, jobsInserted: (res as { affectedRows: number }).affectedRows };
  });
}
