// pnpm bench vitess-pinning [--statements N] [--rounds R] [--port P]
//
// Issue 32 asks, for the workers' sessions on Vitess, to measure both ways of keeping a statement on
// one shard: the shard key in every statement (what dsched does: each hot statement names its
// group's partitions, docs/sharding.md) against a session pinned to the shard (`USE
// \`dsched:-80\``), where vtgate sends the statement to that shard without planning its route.
//
// Method: a vttestserver (scripts/vitess testserver, 2 shards, vtgate on --port, default the stack's
// 15306) with the migrations applied through vtgate; 2,000 due jobs in partition 0 (shard -80). One
// connection runs the executor's claim (claim-select.sql: `FOR UPDATE SKIP LOCKED`, up to 100 rows,
// keyed by the group's partitions) in a transaction rolled back, N times in a row, and then a
// read of one job by its key N times; once on a session with no keyspace (vtgate routes by the
// key) and once on a session pinned to `dsched:-80` (the same text: the key is then redundant), R
// rounds, the order swapped every round. Per statement: the client's wall time, and the CPU of
// vttestserver's vtcombo (vtgate and both tablets in one process: the difference between the two
// sessions is vtgate's routing, the tablets' work being the same) and of its mysqld, from /proc.
// Medians over the rounds. Run it on an otherwise idle machine (`quiet`).
import { execFileSync } from 'node:child_process';
import { partitionGroups } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { CLAIM_STATEMENTS } from '@dsched/mysql/jobs/claim';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { REPO_ROOT } from '@dsched/testkit/names';
import { insertDueJobs } from '@dsched/testkit/queue';
import { cpuMs } from './_cpu.ts';
import { machine, median } from './_stack.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const STATEMENTS = option('statements', 1000);
const ROUNDS = option('rounds', 5);
const PORT = option('port', Number(process.env.DSCHED_VITESS_PORT ?? 15306));
const PARTITIONS = 64;

type Mode = 'keyed' | 'pinned';
type Statement = 'claim' | 'read';

/** The pid listening on a TCP port of 127.0.0.1 (ss's process column). */
function listener(port: number): number {
  const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid)
    throw new Error(`vitess-pinning: nothing listens on 127.0.0.1:${port} (scripts/vitess testserver up 0)`);
  return Number(pid);
}

async function session(url: string, pin: string | null): Promise<Pool> {
  const pool = createPool(url, { connectionLimit: 1 });
  if (pin) await pool.query(`USE \`${pin}\``);
  return pool;
}

async function main(): Promise<void> {
  const url = `mysql://dsched:dsched@127.0.0.1:${PORT}/@primary`;
  const vtcombo = listener(PORT);
  const mysqld = listener(PORT - 1);
  const setup = createPool(url, { connectionLimit: 4 });
  await migrateMysql(setup, { topology: 'vitess' });
  const [shardRows] = await setup.query<RowDataPacket[]>('SHOW VITESS_SHARDS');
  const shards = shardRows.map((r) => String(Object.values(r)[0])).filter((s) => s.startsWith('dsched/'));
  const groups = partitionGroups(
    PARTITIONS,
    shards.map((s) => s.slice('dsched/'.length)),
  );
  const group = groups.find((g) => g.partitions.includes(0));
  if (!group || groups.length < 2)
    throw new Error(`vitess-pinning: wants a keyspace of 2+ shards, found ${shards.join(', ')}`);
  await setup.query('DELETE FROM job_attempts');
  await setup.query('DELETE FROM jobs');
  const tenant = await createTenantWithKey(setup);
  const ids = await insertDueJobs(
    setup,
    { tenantId: tenant.id, target: { url: 'http://127.0.0.1:9/x' }, partition: 0 },
    2000,
  );
  await setup.end();

  const pools: Record<Mode, Pool> = {
    keyed: await session(url, null),
    pinned: await session(url, `dsched:${group.shard}`),
  };
  const claimParams = ['default', 0, group.partitions, 100];
  const readSql = 'SELECT id, state, attempt FROM jobs WHERE `partition` = ? AND id = ?';
  const readId = idToBin(ids[0]!);
  const once = async (mode: Mode, statement: Statement) => {
    const pool = pools[mode];
    if (statement === 'claim') {
      const conn = await pool.getConnection();
      try {
        await conn.query('BEGIN');
        const [rows] = await conn.query<RowDataPacket[]>(CLAIM_STATEMENTS.select, claimParams);
        if (rows.length !== 100)
          throw new Error(`vitess-pinning: ${mode} claim read ${rows.length} rows, not 100`);
        await conn.query('ROLLBACK');
      } finally {
        conn.release();
      }
    } else {
      const [rows] = await pool.query<RowDataPacket[]>(readSql, [0, readId]);
      if (rows.length !== 1) throw new Error(`vitess-pinning: ${mode} read ${rows.length} rows, not 1`);
    }
  };
  for (const mode of ['keyed', 'pinned'] as const) {
    await once(mode, 'claim');
    await once(mode, 'read');
  }
  type Sample = { wallUs: number[]; vtUs: number[]; mysqlUs: number[] };
  const results = new Map<string, Sample>();
  const key = (m: Mode, s: Statement) => `${s}/${m}`;
  for (const s of ['claim', 'read'] as const)
    for (const m of ['keyed', 'pinned'] as const)
      results.set(key(m, s), { wallUs: [], vtUs: [], mysqlUs: [] });
  process.stdout.write(
    `vitess-pinning: ${STATEMENTS} statements × ${ROUNDS} rounds per form, vtgate :${PORT} (shard ${group.shard} of ${shards.length}); ${machine()}\n\n`,
  );
  for (let r = 0; r < ROUNDS; r++) {
    const order: Mode[] = r % 2 === 0 ? ['keyed', 'pinned'] : ['pinned', 'keyed'];
    for (const statement of ['claim', 'read'] as const) {
      for (const mode of order) {
        const vt0 = cpuMs(vtcombo);
        const my0 = cpuMs(mysqld);
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < STATEMENTS; i++) await once(mode, statement);
        const wall = Number(process.hrtime.bigint() - t0) / 1000;
        const sample = results.get(key(mode, statement))!;
        sample.wallUs.push(wall / STATEMENTS);
        sample.vtUs.push(((cpuMs(vtcombo) - vt0) * 1000) / STATEMENTS);
        sample.mysqlUs.push(((cpuMs(mysqld) - my0) * 1000) / STATEMENTS);
      }
    }
  }
  process.stdout.write('statement  session  wall µs  vtcombo CPU µs  mysqld CPU µs\n');
  const metrics: Record<string, number> = {};
  for (const statement of ['claim', 'read'] as const) {
    for (const mode of ['keyed', 'pinned'] as const) {
      const s = results.get(key(mode, statement))!;
      const [w, v, m] = [median(s.wallUs), median(s.vtUs), median(s.mysqlUs)];
      metrics[`${statement}_${mode}_wall_us`] = Number(w.toFixed(0));
      metrics[`${statement}_${mode}_vtcombo_us`] = Number(v.toFixed(0));
      metrics[`${statement}_${mode}_mysqld_us`] = Number(m.toFixed(0));
      process.stdout.write(
        `${statement.padEnd(9)}  ${mode.padEnd(7)}  ${w.toFixed(0).padStart(7)}  ${v.toFixed(0).padStart(14)}  ${m
          .toFixed(0)
          .padStart(13)}\n`,
      );
    }
    metrics[`${statement}_pinned_over_keyed_wall`] = Number(
      (metrics[`${statement}_pinned_wall_us`]! / metrics[`${statement}_keyed_wall_us`]!).toFixed(3),
    );
    metrics[`${statement}_pinned_over_keyed_vtcombo`] = Number(
      (metrics[`${statement}_pinned_vtcombo_us`]! / metrics[`${statement}_keyed_vtcombo_us`]!).toFixed(3),
    );
  }
  process.stdout.write(`${JSON.stringify({ bench: 'vitess-pinning', root: REPO_ROOT, metrics })}\n`);
  await pools.keyed.end();
  await pools.pinned.end();
}

await main();
