import {
  idParamsSchema,
  occurrencePreviewSchema,
  occurrencesQuerySchema,
  parseForResponse,
  scheduleParseResultSchema,
  scheduleParseSchema,
  schedulePreviewSchema,
} from '@dsched/domain';
import { defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { schedulePreview, taskOccurrences } from '../core/schedule-preview.ts';
import type { DatabaseClock, RateLimiter, TaskRepository, TenantDirectory } from '../ports.ts';
import { RATE_LIMITED } from './task-lifecycle.ts';
import { tenantGuard } from './tenant-guard.ts';

// GET /v1/tasks/{id}/occurrences and POST /v1/schedules/preview: the next fire times, as the
// scheduler will compute them, with daylight-saving shifts, repeats and skips marked.

const MARKS =
  'Each entry has its instant, wall clock and UTC offset; `dst` marks a time shifted out of a ' +
  'spring-forward gap, a wall time that occurs twice, or a `skipped` entry (fires: false) the ' +
  'DST policy leaves out. Skipped entries are listed between the fires and not counted.';

export const schedulePreviewRouteDocs = [
  defineRoute({
    method: 'get',
    path: '/v1/tasks/{id}/occurrences',
    summary: 'The task’s next fire times, DST policy applied',
    description: MARKS,
    tags: ['tasks'],
    auth: 'tenant',
    params: idParamsSchema,
    query: occurrencesQuerySchema,
    responses: {
      200: { description: 'the preview', schema: occurrencePreviewSchema },
      ...STANDARD_ERRORS,
      429: RATE_LIMITED,
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/schedules/parse',
    summary: 'Read a schedule in words: the schedule it gives, its sentence and next fire times',
    description:
      'Recurrences ("every weekday at 9am", "on the last day of every month at 23:00") become cron ' +
      'or interval schedules, one-off times ("in 3 hours", "tomorrow at 5pm") once schedules. A phrase ' +
      'is understood exactly or refused: the 400 names `text` and the word not understood. Nothing is stored.',
    tags: ['tasks'],
    auth: 'tenant',
    body: scheduleParseSchema,
    responses: {
      200: { description: 'what the words say', schema: scheduleParseResultSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      429: RATE_LIMITED,
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/schedules/preview',
    summary: 'The next fire times of a schedule not yet saved, DST policy applied',
    description: `${MARKS} The schedule is validated as on task create; nothing is stored.`,
    tags: ['tasks'],
    auth: 'tenant',
    body: schedulePreviewSchema,
    responses: {
      200: { description: 'the preview', schema: occurrencePreviewSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      429: RATE_LIMITED,
    },
  }),
];

export function registerSchedulePreviewRoutes(
  app: FastifyInstance,
  deps: { tasks: TaskRepository; tenants: TenantDirectory; rateLimit: RateLimiter; now: DatabaseClock },
): void {
  const tenantOf = tenantGuard(deps);

  app.get('/v1/tasks/:id/occurrences', async (request) => {
    const tenant = await tenantOf(request);
    const id = pathId(request.params, 'task');
    return taskOccurrences(deps, tenant, id, parseWith(occurrencesQuerySchema, request.query));
  });

  app.post('/v1/schedules/parse', async (request) => {
    await tenantOf(request);
    return parseForResponse(parseWith(scheduleParseSchema, request.body), await deps.now());
  });

  app.post('/v1/schedules/preview', async (request) => {
    await tenantOf(request);
    return schedulePreview(deps, parseWith(schedulePreviewSchema, request.body));
  });
}
