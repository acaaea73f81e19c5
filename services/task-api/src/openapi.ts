import { errorSchema } from '@dsched/domain';
import { OpenApiDocument } from '@dsched/runtime';
import { auditRoute } from './routes/audit.ts';
import { operationRouteDocs } from './routes/operations.ts';
import { adminRouteDocs, taskRouteDocs } from './routes/route-docs.ts';
import { schedulePreviewRouteDocs } from './routes/schedule-preview.ts';
import { taskLifecycleRouteDocs } from './routes/task-lifecycle.ts';
import { taskRunRouteDocs } from './routes/task-runs.ts';
import { workflowSignalRouteDocs } from './routes/workflow-signals.ts';
import { workflowRouteDocs } from './routes/workflows.ts';

/**
 * The document task-api serves at /openapi.json. Built without a server, so that
 * scripts/generate-client.ts makes @dsched/client's types from exactly what is served.
 */
export function taskApiDocument(): OpenApiDocument {
  return new OpenApiDocument(
    {
      title: 'dsched task-api',
      version: '1',
      description: 'Tenants, tasks and their audit, workflows, bulk operations.',
    },
    { errorSchema },
  ).add(
    adminRouteDocs,
    taskRouteDocs,
    taskLifecycleRouteDocs,
    taskRunRouteDocs,
    auditRoute,
    schedulePreviewRouteDocs,
    workflowRouteDocs,
    workflowSignalRouteDocs,
    operationRouteDocs,
  );
}
