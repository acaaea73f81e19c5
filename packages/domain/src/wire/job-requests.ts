import { z } from 'zod';

// The request bodies of job-api's write routes, as zod schemas: they validate requests and
// generate the OpenAPI document, so the two cannot drift apart (docs/async-completion.md).

/** The largest output or progress document job-api keeps, serialised. */
export const MAX_CALLBACK_DOC_BYTES = 16 * 1024;

const callbackDoc = z
  .record(z.string(), z.unknown())
  .refine((d) => Buffer.byteLength(JSON.stringify(d)) <= MAX_CALLBACK_DOC_BYTES, {
    message: `at most ${MAX_CALLBACK_DOC_BYTES} bytes as JSON`,
  });

const attempt = z
  .number()
  .int()
  .min(1)
  .describe('The attempt token: the Dsched-Attempt header of the call being completed');

export const heartbeatRequestSchema = z.object({
  attempt,
  progress: callbackDoc
    .optional()
    .describe('Any JSON object; kept on the job and shown by GET /v1/jobs/{id}'),
});

export const completeRequestSchema = z
  .object({
    attempt,
    outcome: z.enum(['succeeded', 'failed']),
    output: callbackDoc.optional().describe('Any JSON object; kept on the job'),
    error: z.string().max(1000).optional().describe('Why the work failed (outcome "failed")'),
  })
  .refine((r) => r.outcome === 'failed' || r.error === undefined, {
    path: ['error'],
    message: 'only with outcome "failed"',
  })
  // The refinement above, as the document states it: `error` only beside outcome "failed".
  .meta({ anyOf: [{ properties: { outcome: { const: 'failed' } } }, { not: { required: ['error'] } }] });

export const heartbeatResponseSchema = z.object({
  id: z.string(),
  attempt: z.number().int(),
  state: z.literal('running'),
  heartbeatBy: z.string().describe('the next heartbeat (or the completion) is due by then'),
  deadlineAt: z
    .string()
    .optional()
    .describe('the job must complete by then (absent while the executor still holds the call)'),
  cancelRequested: z.boolean().describe('the job was cancelled meanwhile: stop the work'),
});

/** POST /v1/jobs/{id}/cancel takes no body; an empty object is accepted. */
export const cancelRequestSchema = z.object({}).strict();

export type HeartbeatRequest = z.infer<typeof heartbeatRequestSchema>;
export type CompleteRequest = z.infer<typeof completeRequestSchema>;
