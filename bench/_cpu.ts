import { readdirSync, readFileSync } from 'node:fs';
import type { Pool, RowDataPacket } from '@dsched/mysql/pool';

// CPU from /proc for the benchmarks: of a process, of each of its threads, and of the MariaDB
// threads serving a database's connections.

const TICK_MS = 1000 / 100; // USER_HZ: /proc times are in clock ticks of 10 ms on Linux

/** CPU milliseconds (user + system) a process (or, with a `task/<tid>` path, one thread) has used so far. */
export function cpuMs(pid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU so far of each thread of a process, by thread id. */
export function threadCpuMs(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), cpuMs(`${pid}/task/${tid}`));
    } catch {
      // ended meanwhile
    }
  }
  return threads;
}

// The MariaDB server is shared (other checkouts' tests run on it at the same time), so its whole
// CPU over a run is an upper bound for ours. MariaDB runs one thread per connection and names it in
// the process list (TID), so the CPU of the executors' own connections is theirs: read at the end
// of a run for the benchmark database's connections other than the benchmark's own (inserts and
// polling), against each thread's CPU at the start (0 for a thread started during the run). Work
// InnoDB's background threads do for those connections (purge, flushing) is not in it.
export async function connectionThreadCpuMs(
  pool: Pool,
  mysqlPid: number,
  database: string,
  start: Map<number, number>,
): Promise<number> {
  const [own] = await pool.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS id');
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT TID AS tid FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> ?',
    [database, own[0]!.id],
  );
  let total = 0;
  for (const { tid } of rows) {
    try {
      total += cpuMs(`${mysqlPid}/task/${Number(tid)}`) - (start.get(Number(tid)) ?? 0);
    } catch {
      // the connection closed meanwhile
    }
  }
  return total;
}

export function findPid(names: string[]): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** The MariaDB server's process id (null when it is not on this machine). */
export function mysqlServerPid(): number | null {
  return findPid(['mariadbd', 'mysqld']);
}
