import { execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from '@dsched/testkit/ports';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { REPO_ROOT } from '../harness/paths.ts';
import { type Child, spawnChild } from '../harness/processes.ts';
import { waitFor } from '../harness/wait.ts';
import type { Priority, RegisteredTask } from '../harness/workload.ts';

// The peer: the same 30,000 calls due at one second, through BullMQ on a Redis of the harness's
// own (Debian's redis-server, own port, no persistence), to the same sink. Set up the way BullMQ's
// documentation recommends for throughput: jobs added in bulk as delayed jobs, critical ones with
// no priority (BullMQ runs those first) and the rest with priority 1, several worker processes
// with high concurrency, completed jobs removed.

export interface PeerRun {
  tasks: RegisteredTask[];
  due: number;
  addedInS: number;
}

export class BullmqPeer {
  readonly #redis: Child;
  readonly #port: number;
  readonly #workers: Child[] = [];

  private constructor(redis: Child, port: number) {
    this.#redis = redis;
    this.#port = port;
  }

  static async start(logDir: string): Promise<BullmqPeer> {
    ensureRedisInstalled();
    const port = await freePort();
    const redis = spawnChild(
      'redis',
      ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { logFile: `${logDir}redis.log` },
    );
    const peer = new BullmqPeer(redis, port);
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
    return peer;
  }

  async startWorkers(n: number, concurrency: number, sinkUrl: string, logDir: string): Promise<void> {
    for (let i = 0; i < n; i++) {
      const child = spawnChild(
        `bullmq-worker-${i}`,
        [process.execPath, new URL('./bullmq-worker.ts', import.meta.url).pathname],
        {
          env: {
            ...(process.env as Record<string, string>),
            REDIS_PORT: String(this.#port),
            SINK_URL: sinkUrl,
            CONCURRENCY: String(concurrency),
          },
          logFile: `${logDir}bullmq-worker-${i}.log`,
          pipeStdout: true,
          pipeStdin: true,
        },
      );
      const lines = createInterface({ input: child.process.stdout! });
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('bullmq worker did not start')), 20_000);
        lines.once('line', () => {
          clearTimeout(t);
          resolve();
        });
      });
      this.#workers.push(child);
    }
  }

  /** Adds `n` delayed calls due at one second (chosen after the adds' own duration), 1% critical. */
  async addBurst(n: number, tenants: number, criticalShare: number): Promise<PeerRun> {
    // BullMQ 6 under native ESM takes a constructed ioredis client, not connection options.
    const redis = new Redis({ host: '127.0.0.1', port: this.#port, maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    const queue = new Queue('peak', { connection: redis });
    const criticalEvery = criticalShare >= 1 ? 1 : Math.round(1 / criticalShare);
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
    const due = Math.ceil((Date.now() + (n / perMs) * 1.5 + 5000) / 1000) * 1000;
    const scheduledFor = new Date(due).toISOString();
    const tasks: RegisteredTask[] = [];
    const started = Date.now();
    for (let from = 0; from < n; from += 1000) {
      const chunk = [];
      for (let i = from; i < Math.min(n, from + 1000); i++) {
        const critical = i % criticalEvery === 0;
        const priority: Priority = critical ? 'critical' : 'normal';
        const taskId = `bullmq-task-${i}`;
        tasks.push({
          id: taskId,
          nextFireAt: due,
          plan: { tenant: i % tenants, priority, profile: 'fast', schedule: { type: 'once', at: due } },
        });
        chunk.push({
          name: 'call',
          data: { taskId, scheduledFor, tenant: i % tenants },
          opts: {
            delay: due - Date.now(),
            ...(critical ? {} : { priority: 1 }),
            attempts: 5,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: true,
            removeOnFail: true,
          },
        });
      }
      await queue.addBulk(chunk);
    }
    const addedInS = (Date.now() - started) / 1000;
    await queue.close();
    redis.disconnect();
    return { tasks, due, addedInS };
  }

  /** The processes BullMQ's side runs on, for the CPU accounting. */
  get pids(): { workers: number[]; redis: number[] } {
    return { workers: this.#workers.map((w) => w.pid), redis: [this.#redis.pid] };
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
