import {
  applyResultSchema,
  applyTasksSchema,
  createTaskSchema,
  createWorkflowSchema,
  idParamsSchema,
  laneSchema,
  metadataSchema,
  misfirePolicySchema,
  overlapPolicySchema,
  prioritySchema,
  retrySchema,
  scheduleViewSchema,
  tagsSchema,
  targetSchema,
  WORKFLOW_START_LANE,
} from '@dsched/domain';
import { defineRoute, STANDARD_ERRORS } from '@dsched/runtime';
import { z } from 'zod';
import { createTenantSchema, patchTenantSchema } from '../core/tenants.ts';

// OpenAPI entries of the routes in tasks.ts and admin.ts, naming the zod schemas those handlers
// validate with. A new route adds its entry beside its handler and one line in app.ts.

export const taskSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().optional().describe('the tenant’s own name for the task, when it has one'),
    // The stored shapes, defaults applied, with the sentence: what taskView writes.
    schedule: scheduleViewSchema,
    target: targetSchema.optional().describe('absent on a workflow task, which carries `workflow` instead'),
    workflow: createWorkflowSchema
      .optional()
      .describe('a workflow task: each occurrence starts one run of this body (docs/workflows.md)'),
    priority: prioritySchema,
    lane: z
      .union([laneSchema, z.literal(WORKFLOW_START_LANE)])
      .describe(
        '`workflow` for a workflow task: its occurrences start runs, whose nodes choose their own lanes',
      ),
    retry: retrySchema,
    misfirePolicy: misfirePolicySchema,
    overlapPolicy: overlapPolicySchema,
    metadata: metadataSchema.optional(),
    tags: tagsSchema.optional(),
    jitterS: z.number().int().optional().describe('the flexible window, when the task has one'),
    pauseAfterFailures: z.number().int().optional(),
    callbacks: z.object({ onSuccess: z.string().optional(), onDead: z.string().optional() }).optional(),
    flowControl: z
      .object({
        key: z.string(),
        parallelism: z.number().int().optional(),
        ratePerSecond: z.number().optional(),
      })
      .optional()
      .describe('flow control per key, when the task has one (docs/flow-control.md)'),
    state: z.enum(['active', 'paused']),
    pausedReason: z.string().optional().describe('why dsched paused the task (pauseAfterFailures)'),
    nextFireAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Task' });

const tenantSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    maxConcurrency: z.number().int().nullable(),
    maxTasks: z.number().int().nullable(),
    rateLimitPerSecond: z.number().int().nullable(),
    weight: z.number().describe('share of a saturated lane relative to other tenants (docs/fair-share.md)'),
    createdAt: z.string(),
  })
  .meta({ id: 'Tenant' });

export const taskRouteDocs = [
  defineRoute({
    method: 'post',
    path: '/v1/tasks',
    summary: 'Create a task: a once, cron or interval schedule and an HTTP target',
    tags: ['tasks'],
    auth: 'tenant',
    body: createTaskSchema,
    responses: {
      201: { description: 'the task', schema: taskSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tasks:apply',
    summary: 'Apply a file of keyed tasks: create, update or leave each by key; prune the rest',
    description:
      'Schedules as code (docs/schedules-as-code.md). Every entry is a POST /v1/tasks body with its ' +
      '`key`. In one transaction each key’s task is created, updated field by field (the plan says ' +
      'which fields) or left unchanged; with `prune` the tenant’s keyed tasks the list does not name ' +
      'are deleted (never one without a key). `dryRun` answers the plan and changes nothing. A body ' +
      'with an error changes nothing: the 400 names each entry and field (`tasks.3.schedule.text`, ' +
      'with the key). Applying the same list twice changes nothing the second time.',
    tags: ['tasks'],
    auth: 'tenant',
    body: applyTasksSchema,
    responses: {
      200: { description: 'the plan, applied unless dryRun', schema: applyResultSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      409: { description: 'conflict: a key was taken by a task created meanwhile' },
      429: { description: 'resource_exhausted: the creates exceed the tenant’s maxTasks' },
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/tasks/{id}',
    summary: 'One task',
    tags: ['tasks'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: {
      200: { description: 'the task', schema: taskSchema },
      401: STANDARD_ERRORS[401],
      404: STANDARD_ERRORS[404],
    },
  }),
];

export const adminRouteDocs = [
  defineRoute({
    method: 'post',
    path: '/v1/admin/tenants',
    summary: 'Create a tenant; its API key and signing secret are shown once',
    tags: ['admin'],
    auth: 'admin',
    body: createTenantSchema,
    responses: {
      201: {
        description: 'the tenant with apiKey and signingSecret',
        schema: z.object({ ...tenantSchema.shape, apiKey: z.string(), signingSecret: z.string() }),
      },
      400: STANDARD_ERRORS[400],
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/tenants/{id}',
    summary: 'One tenant',
    tags: ['admin'],
    auth: 'admin',
    params: idParamsSchema,
    responses: { 200: { description: 'the tenant', schema: tenantSchema }, 404: STANDARD_ERRORS[404] },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/admin/tenants/{id}',
    summary: 'Change a tenant’s name or quotas',
    tags: ['admin'],
    auth: 'admin',
    params: idParamsSchema,
    body: patchTenantSchema,
    responses: {
      200: { description: 'the tenant', schema: tenantSchema },
      400: STANDARD_ERRORS[400],
      404: STANDARD_ERRORS[404],
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/admin/tenants/{id}/keys',
    summary: 'Rotate a tenant’s API key (the old one works for KEY_ROTATION_GRACE_S)',
    tags: ['admin'],
    auth: 'admin',
    params: idParamsSchema,
    responses: {
      201: { description: 'the new key', schema: z.object({ id: z.string(), apiKey: z.string() }) },
      404: STANDARD_ERRORS[404],
    },
  }),
];
