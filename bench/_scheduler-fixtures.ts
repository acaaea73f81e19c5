// Shared set-up of the scheduler benchmarks: the local stack, a fresh database, and tasks loaded
// in bulk with multi-row inserts (thousands of rows per statement), straight into `tasks`.
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  newApiKey,
  newId,
  newSigningSecret,
  PRIORITY_RANK,
  type Priority,
  partitionOf,
} from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type Pool } from '@dsched/mysql/pool';
import { insertTenant } from '@dsched/mysql/tenants/tenant-store';

export const SERVER_URL = process.env.DSCHED_BENCH_MYSQL_URL ?? 'mysql://dsched:dsched@127.0.0.1:3306';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Brings the local stack up when MariaDB does not answer (scripts/stack up is idempotent). */
export async function ensureStack(): Promise<void> {
  if (process.env.DSCHED_BENCH_MYSQL_URL || (await portOpen(3306))) return;
  execFileSync('bash', [fileURLToPath(new URL('../scripts/stack', import.meta.url)), 'up'], {
    stdio: 'inherit',
  });
}

/** A dropped-and-recreated, migrated database of the benchmark's own. */
export async function freshDatabase(name: string): Promise<Pool> {
  const admin = createPool(`${SERVER_URL}/mysql`, { connectionLimit: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const pool = createPool(`${SERVER_URL}/${name}`, { connectionLimit: 8 });
  await migrateMysql(pool);
  return pool;
}

export async function dropDatabase(pool: Pool, name: string): Promise<void> {
  await pool.query(`DROP DATABASE IF EXISTS \`${name}\``);
}

export async function benchTenant(pool: Pool): Promise<string> {
  const key = newApiKey();
  const id = newId();
  await insertTenant(
    pool,
    {
      id,
      name: 'bench',
      signingSecret: newSigningSecret(),
      maxTasks: null,
      maxConcurrency: null,
      rateLimitPerSecond: null,
      createdAt: new Date(),
    },
    { hash: key.hash, prefix: key.prefix },
  );
  return id;
}

export interface TaskShape {
  expression: string;
  timezone: string;
  nextFireAt: Date;
  priority?: Priority;
}

const TARGET = JSON.stringify({
  url: 'http://127.0.0.1:9/bench',
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: { report: 'daily' },
  timeoutMs: 30000,
});
const RETRY = JSON.stringify({ maxAttempts: 5, initialBackoffMs: 1000, maxBackoffMs: 300000, rules: [] });

/** Inserts `count` active cron tasks, `chunk` rows per statement; returns their ids. */
export async function loadTasks(
  pool: Pool,
  tenantId: string,
  count: number,
  shape: (i: number) => TaskShape,
  options: { partitions?: number; chunk?: number } = {},
): Promise<Buffer[]> {
  const partitions = options.partitions ?? 64;
  const chunk = options.chunk ?? 5000;
  const tenant = idToBin(tenantId);
  const ids: Buffer[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += chunk) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(count, start + chunk); i++) {
      const id = newId();
      const s = shape(i);
      const bin = idToBin(id);
      ids.push(bin);
      rows.push([
        bin,
        tenant,
        `bench-${i}`,
        JSON.stringify({
          type: 'cron',
          expression: s.expression,
          timezone: s.timezone,
          dst: { repeated: 'first', skipped: 'shift' },
        }),
        TARGET,
        PRIORITY_RANK[s.priority ?? 'normal'],
        s.priority === 'critical' ? 'critical' : 'default',
        RETRY,
        'fire_once',
        'allow',
        'active',
        s.nextFireAt,
        partitionOf(id, partitions),
        now,
        now,
      ]);
    }
    await pool.query(
      `INSERT INTO tasks (id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy,
         overlap_policy, state, next_fire_at, \`partition\`, created_at, updated_at) VALUES ?`,
      [rows],
    );
  }
  await pool.query('UPDATE tenants SET task_count = task_count + ? WHERE id = ?', [count, tenant]);
  return ids;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
