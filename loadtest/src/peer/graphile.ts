import { Logger, makeWorkerUtils, runMigrations } from 'graphile-worker';
import type { Child } from '../harness/processes.ts';
import type { OwnPostgres } from './postgres.ts';
import {
  burstCalls,
  burstTasks,
  dueAfterAdds,
  type Peer,
  type PeerRun,
  startWorkerProcesses,
} from './types.ts';

// graphile-worker on the harness's own PostgreSQL 15 (postgres.ts: fsync and synchronous_commit on).
// Two set-ups, each in a database of its own:
// - `best`: graphile-worker's documented performance configuration (worker.graphile.org/docs/
//   performance): a local queue (the pool fetches and locks a batch; size concurrency + 1) and
//   batched completions and failures (completeJobBatchDelay / failJobBatchDelay 0: whatever ended
//   while the last batch was written goes in the next);
// - `defaults`: its defaults (each worker slot fetches its own job; one statement per completion;
//   idle slots poll every 2 s), with the pool raised to concurrency + 1 so the slots are not
//   starved of connections (its default pool of 10 would cap 256 slots at ~10 fetches in flight).
// Both log warnings and errors only (graphile-worker logs every job at info: our executor logs
// nothing per job), and add jobs the way its docs say for bulk (`addJobs`, one statement a chunk).
// Priorities: graphile-worker runs numerically smaller first: critical 0, the rest 1.

export type GraphileSetup = 'best' | 'defaults';

export class GraphilePeer implements Peer {
  readonly name: string;
  readonly key: string;
  readonly setup: string;
  readonly #pg: OwnPostgres;
  readonly #url: string;
  readonly #workers: Child[] = [];

  private constructor(
    pg: OwnPostgres,
    url: string,
    setup: GraphileSetup,
    processes: number,
    concurrency: number,
  ) {
    this.#pg = pg;
    this.#url = url;
    this.key = setup === 'best' ? 'graphile' : 'graphile_defaults';
    this.name = setup === 'best' ? 'graphile-worker' : 'graphile-worker (defaults)';
    this.setup =
      setup === 'best'
        ? `graphile-worker 0.18 on PostgreSQL 15 (fsync, synchronous_commit on): ${processes} processes × ${concurrency} jobs, localQueue.size ${concurrency + 1}, completeJobBatchDelay 0, failJobBatchDelay 0, pool ${concurrency + 2}`
        : `graphile-worker 0.18 defaults on PostgreSQL 15: ${processes} processes × ${concurrency} jobs, no local queue, no batched completions, pollInterval 2000, pool ${concurrency + 1}`;
  }

  static async start(
    pg: OwnPostgres,
    setup: GraphileSetup,
    options: { processes: number; concurrency: number; sinkUrl: string; logDir: string },
  ): Promise<GraphilePeer> {
    const url = await pg.freshDatabase(setup === 'best' ? 'gw_best' : 'gw_defaults');
    await runMigrations({ connectionString: url, logger: quietLogger() });
    const peer = new GraphilePeer(pg, url, setup, options.processes, options.concurrency);
    peer.#workers.push(
      ...(await startWorkerProcesses(
        `graphile-worker-${setup}`,
        [process.execPath, new URL('./graphile-worker.ts', import.meta.url).pathname],
        {
          GW_DATABASE_URL: url,
          GW_SETUP: setup,
          SINK_URL: options.sinkUrl,
          CONCURRENCY: String(options.concurrency),
        },
        options.processes,
        options.logDir,
      )),
    );
    return peer;
  }

  async addBurst(n: number, tenants: number, criticalShare: number): Promise<PeerRun> {
    const utils = await makeWorkerUtils({ connectionString: this.#url, logger: quietLogger() });
    try {
      const calls = burstCalls('graphile', n, tenants, criticalShare);
      // Time the adds on a warm-up chunk (due in a day, deleted), so the due second leaves room.
      const t0 = Date.now();
      const tomorrow = new Date(Date.now() + 86_400_000);
      await utils.addJobs(
        Array.from({ length: 1000 }, (_, i) => ({
          identifier: 'warmup',
          payload: { i },
          runAt: tomorrow,
        })),
      );
      const perMs = 1000 / Math.max(1, Date.now() - t0);
      await utils.withPgClient((c) => c.query(`DELETE FROM graphile_worker._private_jobs`));
      const due = dueAfterAdds(n, perMs);
      const runAt = new Date(due);
      const scheduledFor = runAt.toISOString();
      const started = Date.now();
      for (let from = 0; from < n; from += 1000) {
        await utils.addJobs(
          calls.slice(from, from + 1000).map((c) => ({
            identifier: 'call',
            payload: { taskId: c.taskId, scheduledFor, tenant: c.tenant },
            runAt,
            priority: c.critical ? 0 : 1,
            maxAttempts: 5,
          })),
        );
      }
      return { tasks: burstTasks(calls, due), due, addedInS: (Date.now() - started) / 1000 };
    } finally {
      await utils.release();
    }
  }

  cpuKinds(): Record<string, () => number[]> {
    return {
      graphile_worker: () => this.#workers.filter((w) => w.running()).map((w) => w.pid),
      postgres: () => this.#pg.pids(),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.stop('SIGTERM', 10_000)));
  }
}

function quietLogger() {
  // graphile-worker's Logger: a factory of scoped log functions.
  return new Logger(() => (level: string, message: string) => {
    if (level === 'error' || level === 'warning')
      process.stderr.write(`graphile-worker ${level}: ${message}\n`);
  });
}
