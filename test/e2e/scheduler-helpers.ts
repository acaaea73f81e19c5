import { idToBin } from '@dsched/mysql/ids';
import { databaseNow, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import { startService } from '@dsched/testkit/services';

// Shared by the scheduler end-to-end tests: replicas as real processes, and checks that read
// what they wrote with the database clock.

export function startScheduler(env: Record<string, string>, options: { command?: string[] } = {}) {
  return startService(
    'scheduler',
    {
      SCHEDULER_TICK_MS: '250',
      SCHEDULER_LEASE_TTL_MS: '3000',
      SCHEDULER_LEASE_CHECK_MS: '500',
      SHUTDOWN_GRACE_MS: '5000',
      ...env,
    },
    options,
  );
}

export const dbNow = databaseNow;

/** The value of an unlabelled metric in a Prometheus scrape (0 when absent). */
export async function metric(baseUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** Lease holders and their partition counts, by the instance id before the '#'. */
export async function leaseHolders(pool: Pool): Promise<Map<string, number[]>> {
  const [rows] = await pool.query<RowDataPacket[]>(
    "SELECT name, holder FROM leases WHERE name LIKE 'scheduler.partition.%' AND holder IS NOT NULL AND expires_at > NOW(3)",
  );
  const out = new Map<string, number[]>();
  for (const r of rows) {
    const who = String(r.holder).split('#')[0]!;
    out.set(who, [...(out.get(who) ?? []), Number(String(r.name).split('.').at(-1))]);
  }
  return out;
}

/**
 * For each task, every scheduled occurrence that must exist in [from, to] (the cron fires every
 * `everyMs`), compared with the jobs there are: missing ones, and occurrences with more than one job.
 */
export async function auditEverySecondTasks(
  pool: Pool,
  taskIds: string[],
  from: Date,
  to: Date,
  everyMs = 1000,
): Promise<{ expected: number; missing: string[]; duplicated: string[] }> {
  const [rows] = await pool.query<RowDataPacket[]>(
    `SELECT HEX(task_id) AS task, scheduled_for, COUNT(*) AS n FROM jobs
      WHERE kind = 'scheduled' AND task_id IN (?) AND scheduled_for BETWEEN ? AND ?
      GROUP BY task_id, scheduled_for`,
    [taskIds.map(idToBin), from, to],
  );
  const seen = new Map<string, number>();
  for (const r of rows)
    seen.set(`${String(r.task).toLowerCase()}@${(r.scheduled_for as Date).getTime()}`, Number(r.n));
  const missing: string[] = [];
  const duplicated: string[] = [];
  let expected = 0;
  const first = Math.ceil(from.getTime() / everyMs) * everyMs;
  for (const id of taskIds) {
    const hex = id.replaceAll('-', '');
    for (let t = first; t <= to.getTime(); t += everyMs) {
      expected += 1;
      const n = seen.get(`${hex}@${t}`) ?? 0;
      if (n === 0) missing.push(`${id}@${new Date(t).toISOString()}`);
      if (n > 1) duplicated.push(`${id}@${new Date(t).toISOString()} x${n}`);
    }
  }
  return { expected, missing, duplicated };
}
