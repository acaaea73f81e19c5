import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { portOpen } from '@dsched/testkit/ports';

// Shared by benchmarks: bring the local stack up when it is down, apply the migrations to the
// benchmark's own database and keyspace, and describe the machine for the report.

export async function ensureStack(
  env: { DATABASE_URL: string; CASSANDRA_KEYSPACE: string },
  /** `mysql`: a benchmark that never touches Cassandra migrates only MySQL (no keyspace made). */
  only: 'mysql' | 'all' = 'all',
): Promise<void> {
  const root = fileURLToPath(new URL('../', import.meta.url));
  if (!((await portOpen(3306)) && (await portOpen(9042)))) {
    execFileSync('bash', [`${root}scripts/stack`, 'up'], { stdio: 'inherit' });
  }
  execFileSync(process.execPath, [`${root}scripts/migrate.ts`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, MIGRATE_ONLY: only },
  });
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (shared machine: provisional)`;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
