// pnpm bench claim-statement [--statements N] [--rounds R]
//
// Does a prepared statement (mysql2 `execute`, binary protocol) beat `query` (text protocol, the
// values escaped into the SQL) for the claim's locking read (packages/mysql/src/jobs/claim/claim-select.sql),
// the one hot statement of fixed shape? The others take id lists of varying length, which `execute`
// cannot expand.
//
// Method: 2,000 due jobs wait in one lane; one connection runs the statement N times in a row
// (autocommit: each run locks up to 100 rows and lets them go), as `query`, then as `execute`,
// R rounds, the order swapped every round. CPU per statement: the MariaDB thread of that connection
// (PROCESSLIST.TID, from /proc) and this process (process.cpuUsage). Medians over the rounds.
import { createHash } from 'node:crypto';
import { ALL_PARTITIONS, CLAIM_STATEMENTS } from '@dsched/mysql/jobs/claim';
import { createPool, type RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { MYSQL_SERVER_URL } from '@dsched/testkit/mysql';
import { REPO_ROOT } from '@dsched/testkit/names';
import { insertDueJobs } from '@dsched/testkit/queue';
import { cpuMs, mysqlServerPid } from './_cpu.ts';
import { ensureStack, machine, median } from './_stack.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const STATEMENTS = option('statements', 2000);
const ROUNDS = option('rounds', 5);
// Keyed by the group of partitions (one primary's: all 64). `execute` cannot expand a list, so its
// text names each partition with a placeholder of its own.
const CLAIM_SELECT = CLAIM_STATEMENTS.select;
const PARAMS = ['default', 0, ALL_PARTITIONS, 100];
const CLAIM_SELECT_EXECUTE = CLAIM_SELECT.replace(
  '`partition` IN (?)',
  `\`partition\` IN (${ALL_PARTITIONS.map(() => '?').join(', ')})`,
);
const PARAMS_EXECUTE = ['default', 0, ...ALL_PARTITIONS, 100];

type Mode = 'query' | 'execute';

async function main(): Promise<void> {
  const name = `dsched_bench_claimstmt_${createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 6)}`;
  const url = `${MYSQL_SERVER_URL}/${name}`;
  await ensureStack({ DATABASE_URL: url, CASSANDRA_KEYSPACE: name });
  const pool = createPool(url, { connectionLimit: 1 });
  const mysqlPid = mysqlServerPid();
  if (!mysqlPid) throw new Error('claim-statement: no mariadbd/mysqld process on this machine');
  try {
    await pool.query('DELETE FROM job_attempts');
    await pool.query('DELETE FROM jobs');
    const tenant = await createTenantWithKey(pool);
    await insertDueJobs(pool, { tenantId: tenant.id, target: { url: 'http://127.0.0.1:9/x' } }, 2000);
    const [who] = await pool.query<RowDataPacket[]>(
      'SELECT TID AS tid FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()',
    );
    const thread = `${mysqlPid}/task/${Number(who[0]!.tid)}`;
    const once = async (mode: Mode) => {
      const [rows] =
        mode === 'query'
          ? await pool.query<RowDataPacket[]>(CLAIM_SELECT, PARAMS)
          : await pool.execute<RowDataPacket[]>(CLAIM_SELECT_EXECUTE, PARAMS_EXECUTE);
      if (rows.length !== 100) throw new Error(`claim-statement: ${mode} read ${rows.length} rows, not 100`);
    };
    // Both forms once first: the statement is prepared, the pages are in the buffer pool.
    await once('query');
    await once('execute');
    const results: Record<Mode, { serverUs: number[]; clientUs: number[] }> = {
      query: { serverUs: [], clientUs: [] },
      execute: { serverUs: [], clientUs: [] },
    };
    process.stdout.write(
      `claim-statement: ${STATEMENTS} statements × ${ROUNDS} rounds per form; ${machine()}\n\n`,
    );
    for (let r = 0; r < ROUNDS; r++) {
      const order: Mode[] = r % 2 === 0 ? ['query', 'execute'] : ['execute', 'query'];
      for (const mode of order) {
        const server0 = cpuMs(thread);
        const client0 = process.cpuUsage();
        for (let i = 0; i < STATEMENTS; i++) await once(mode);
        const client = process.cpuUsage(client0);
        results[mode].serverUs.push(((cpuMs(thread) - server0) * 1000) / STATEMENTS);
        results[mode].clientUs.push((client.user + client.system) / STATEMENTS);
      }
    }
    process.stdout.write('form      MariaDB µs/statement  client µs/statement\n');
    for (const mode of ['query', 'execute'] as const) {
      process.stdout.write(
        `${mode.padEnd(8)}  ${median(results[mode].serverUs).toFixed(1).padStart(20)}  ${median(
          results[mode].clientUs,
        )
          .toFixed(1)
          .padStart(19)}\n`,
      );
    }
    const metrics = {
      query_mysql_us: Number(median(results.query.serverUs).toFixed(1)),
      execute_mysql_us: Number(median(results.execute.serverUs).toFixed(1)),
      query_client_us: Number(median(results.query.clientUs).toFixed(1)),
      execute_client_us: Number(median(results.execute.clientUs).toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify({ bench: 'claim-statement', metrics })}\n`);
  } finally {
    await pool.end();
  }
}

await main();
