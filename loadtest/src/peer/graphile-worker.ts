import { Logger, run } from 'graphile-worker';
import { Agent, request } from 'undici';

// One graphile-worker process of the peer (graphile.ts): the same HTTP call a dsched executor and
// a BullMQ worker make, to the same sink, over a keep-alive pool of the same size. GW_SETUP picks
// graphile-worker's documented performance configuration (`best`) or its defaults.

const { GW_DATABASE_URL, GW_SETUP, SINK_URL, CONCURRENCY } = process.env;
const concurrency = Number(CONCURRENCY ?? 256);
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });

interface CallData {
  taskId: string;
  scheduledFor: string;
  tenant: number;
}

const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') process.stderr.write(`${level}: ${message}\n`);
});

const best = GW_SETUP === 'best';
const runner = await run({
  connectionString: GW_DATABASE_URL,
  concurrency,
  noHandleSignals: true,
  logger,
  // best: a connection per slot and two for the local queue and the batches; defaults: one per slot.
  maxPoolSize: best ? concurrency + 2 : concurrency + 1,
  ...(best
    ? {
        preset: {
          worker: { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
        },
      }
    : {}),
  taskList: {
    call: async (payload, helpers) => {
      const data = payload as CallData;
      const res = await request(`${SINK_URL}/s/${data.tenant}/fast`, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `graphile-${helpers.job.id}`,
          'dsched-attempt': String(helpers.job.attempts),
          'dsched-scheduled-for': data.scheduledFor,
          'dsched-task-id': data.taskId,
        },
        body: '{"lt":1}',
        signal: AbortSignal.timeout(30_000),
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}`);
    },
  },
});
process.stdout.write('ready\n');
const stop = async () => {
  await runner.stop();
  await agent.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
