import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { loadSql, withCaseGroups } from '../../sql.ts';
import { type FollowUp, finalOutcomes, partitionsOfEnds } from '../finish/job-end.ts';

// A task's failure streak (docs/scheduling.md#pause-on-failure): its scheduled occurrences' final
// outcomes move it, and the pause it reaches supersedes the task's unstarted jobs. The statements
// check each job's state and counts_failures themselves.

const STREAK_SELECT = loadSql(import.meta.url, './follow-up-streak-select.sql');
const STREAK = loadSql(import.meta.url, './follow-up-streak.sql');
const PAUSE = loadSql(import.meta.url, './follow-up-pause.sql');
const SUPERSEDE = loadSql(import.meta.url, './follow-up-supersede.sql');

export const failureStreaks: FollowUp = {
  name: 'failure streaks',
  phase: 'record',
  async run(conn, ends, context) {
    const counting = finalOutcomes(ends).filter((e) => e.followUps?.countsFailures);
    if (counting.length === 0) return;
    // A task's scheduled jobs are in its partition: the ends' partitions are their tasks'.
    const partitions = partitionsOfEnds(counting);
    const ids = counting.map((e) => idToBin(e.id));
    const [moves] = await conn.query<RowDataPacket[]>(STREAK_SELECT, [partitions, ids, partitions, ids]);
    if (moves.length > 0) {
      const streak = withCaseGroups(
        STREAK,
        't.id',
        {
          reset: moves.filter((m) => Number(m.reset) === 1).map((m): [Buffer, number] => [m.task_id, 0]),
          dead: moves
            .filter((m) => Number(m.dead) > 0)
            .map((m): [Buffer, number] => [m.task_id, Number(m.dead)]),
        },
        [partitions, moves.map((m) => m.task_id)],
      );
      await conn.query(streak.sql, streak.params);
    }
    const tasks = [...new Set(counting.map((e) => e.followUps!.taskId))].sort().map(idToBin);
    const [paused] = await conn.query<ResultSetHeader>(PAUSE, [partitions, tasks]);
    context.pausedTasks += paused.affectedRows;
    if (paused.affectedRows > 0) await conn.query(SUPERSEDE, [partitions, tasks]);
  },
};
