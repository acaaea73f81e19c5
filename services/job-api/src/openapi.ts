import { errorSchema } from '@dsched/domain';
import { OpenApiDocument } from '@dsched/runtime';
import { callbackRoutes } from './routes/callbacks.ts';
import { cancelRoute } from './routes/cancel.ts';
import { dlqRoutes } from './routes/dlq.ts';
import { historyRoutes } from './routes/history.ts';
import { getJobRoute } from './routes/jobs.ts';

/**
 * The document job-api serves at /openapi.json. Built without a server, so that
 * scripts/generate-client.ts makes @dsched/client's types from exactly what is served.
 */
export function jobApiDocument(): OpenApiDocument {
  return new OpenApiDocument(
    {
      title: 'dsched job-api',
      version: '1',
      description:
        'Job status, history, the DLQ and its redrive, cancel, and the callbacks of asynchronous jobs.',
    },
    { errorSchema },
  ).add(getJobRoute, historyRoutes, dlqRoutes, cancelRoute, callbackRoutes);
}
