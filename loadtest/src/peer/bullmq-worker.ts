import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';

// One BullMQ worker process of the peer: the same HTTP call a dsched executor makes, to the same
// sink, over a keep-alive pool of the same size. Concurrency as BullMQ recommends for I/O-bound
// work: one process, many jobs in flight.

const { REDIS_PORT, SINK_URL, CONCURRENCY } = process.env;
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });

interface CallData {
  taskId: string;
  scheduledFor: string;
  tenant: number;
}

const connection = new Redis({ host: '127.0.0.1', port: Number(REDIS_PORT), maxRetriesPerRequest: null });
// Redis stops before this process at the end of a run: reconnect errors then are expected.
connection.on('error', () => undefined);

const worker = new Worker<CallData>(
  'peak',
  async (job) => {
    const res = await request(`${SINK_URL}/s/${job.data.tenant}/fast`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': `bullmq-${job.id}`,
        'dsched-attempt': String(job.attemptsMade + 1),
        'dsched-scheduled-for': job.data.scheduledFor,
        'dsched-task-id': job.data.taskId,
      },
      body: '{"lt":1}',
      signal: AbortSignal.timeout(30_000),
    });
    await res.body.dump();
    if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}`);
  },
  {
    connection,
    concurrency: Number(CONCURRENCY ?? 256),
    removeOnComplete: { count: 0 },
    removeOnFail: { count: 0 },
  },
);
worker.on('error', (err) => process.stderr.write(`worker error: ${err.message}\n`));
process.stdout.write('ready\n');
const stop = async () => {
  await worker.close();
  await agent.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
