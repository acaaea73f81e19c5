import { execFileSync } from 'node:child_process';
import { freePort } from '@dsched/testkit/ports';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { REPO_ROOT } from '../harness/paths.ts';
import { type Child, spawnChild } from '../harness/processes.ts';
import { waitFor } from '../harness/wait.ts';
import {
  burstCalls,
  burstTasks,
  dueAfterAdds,
  type Peer,
  type PeerRun,
  startWorkerProcesses,
} from './types.ts';

// The peer: the same 30,000 calls due at one second, through BullMQ on a Redis of the harness's
// own (Debian's redis-server, own port, no persistence), to the same sink. Set up the way BullMQ's
// documentation recommends for throughput: jobs added in bulk as delayed jobs, critical ones with
// no priority (BullMQ runs those first) and the rest with priority 1, several worker processes
// with high concurrency, completed jobs removed.

export class BullmqPeer implements Peer {
  readonly name = 'BullMQ';
  readonly key = 'bullmq';
  readonly setup: string;
  readonly #redis: Child;
  readonly #port: number;
  readonly #workers: Child[] = [];

  private constructor(redis: Child, port: number, processes: number, concurrency: number) {
    this.#redis = redis;
    this.#port = port;
    this.setup = `BullMQ 6 on Redis 7 (no persistence): ${processes} worker processes × ${concurrency}, delayed jobs added in bulk, completed jobs removed`;
  }

  static async start(options: {
    processes: number;
    concurrency: number;
    sinkUrl: string;
    logDir: string;
  }): Promise<BullmqPeer> {
    ensureRedisInstalled();
    const port = await freePort();
    const redis = spawnChild(
      'redis',
      ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { logFile: `${options.logDir}redis.log` },
    );
    const peer = new BullmqPeer(redis, port, options.processes, options.concurrency);
    await waitFor(
      'redis-server',
      async () => {
        const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          return (await redis.ping()) === 'PONG';
        } finally {
          redis.disconnect();
        }
      },
      { timeoutMs: 20_000 },
    );
    peer.#workers.push(
      ...(await startWorkerProcesses(
        'bullmq-worker',
        [process.execPath, new URL('./bullmq-worker.ts', import.meta.url).pathname],
        { REDIS_PORT: String(port), SINK_URL: options.sinkUrl, CONCURRENCY: String(options.concurrency) },
        options.processes,
        options.logDir,
      )),
    );
    return peer;
  }

  /** Adds `n` delayed calls due at one second (chosen after the adds' own duration), 1% critical. */
  async addBurst(n: number, tenants: number, criticalShare: number): Promise<PeerRun> {
    // BullMQ 6 under native ESM takes a constructed ioredis client, not connection options.
    const redis = new Redis({ host: '127.0.0.1', port: this.#port, maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    const queue = new Queue('peak', { connection: redis });
    const calls = burstCalls('bullmq', n, tenants, criticalShare);
    // Time the adds on a warm-up chunk first, so the due second leaves room for all of them.
    const t0 = Date.now();
    const probe = Array.from({ length: 1000 }, (_, i) => ({
      name: 'warmup',
      data: { taskId: `warmup-${i}`, scheduledFor: '', tenant: 0 },
      opts: { delay: 86_400_000 },
    }));
    await queue.addBulk(probe);
    const perMs = 1000 / Math.max(1, Date.now() - t0);
    await queue.obliterate({ force: true });
    const due = dueAfterAdds(n, perMs);
    const scheduledFor = new Date(due).toISOString();
    const started = Date.now();
    for (let from = 0; from < n; from += 1000) {
      await queue.addBulk(
        calls.slice(from, from + 1000).map((c) => ({
          name: 'call',
          data: { taskId: c.taskId, scheduledFor, tenant: c.tenant },
          opts: {
            delay: due - Date.now(),
            ...(c.critical ? {} : { priority: 1 }),
            attempts: 5,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: true,
            removeOnFail: true,
          },
        })),
      );
    }
    const addedInS = (Date.now() - started) / 1000;
    await queue.close();
    redis.disconnect();
    return { tasks: burstTasks(calls, due), due, addedInS };
  }

  cpuKinds(): Record<string, () => number[]> {
    return {
      bullmq_worker: () => this.#workers.filter((w) => w.running()).map((w) => w.pid),
      redis: () => [this.#redis.pid],
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.stop('SIGTERM', 5000)));
    await this.#redis.stop('SIGTERM', 5000);
  }
}

/**
 * A new machine has no redis-server: install Debian's package the way the stack script installs
 * MariaDB, or stop with a message that says what to install (not a bare `spawn ENOENT`).
 */
function ensureRedisInstalled(): void {
  try {
    execFileSync('bash', ['-c', `. "${REPO_ROOT}scripts/lib/apt.sh" && dsched_ensure_redis`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (cause) {
    throw new Error(
      'the BullMQ peer needs redis-server and could not install it: run `apt-get install redis-server` (as root) and try again',
      { cause },
    );
  }
}
