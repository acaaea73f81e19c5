import { z } from 'zod';
import { type FlowControl, LANES, PRIORITIES, type Target } from '../model.ts';

// The fields of one HTTP call that a task and a workflow node both carry (target, retry,
// priority, lane, flow control, metadata, name), as zod schemas, and their conversion to domain
// types. task-spec.ts and workflow-spec.ts build their request shapes on these.

export const MAX_TARGET_TIMEOUT_MS = 60 * 60 * 1000;
export const MAX_BODY_BYTES = 256 * 1024;

const HTTP_URL_ISSUE = 'must be an http or https URL';

// The pattern is in the document (OpenAPI), so a client or a fuzzer reading it knows that "" or
// "ftp://x" is refused; the refinement then asks the WHATWG parser, which the pattern cannot.
export const httpUrlSchema = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#@]+[^\s]*$/, HTTP_URL_ISSUE)
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), HTTP_URL_ISSUE);

export const targetSchema = z.object({
  url: httpUrlSchema,
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
  headers: z
    .record(z.string().min(1).max(128), z.string().max(4096))
    .refine((h) => Object.keys(h).length <= 50, 'at most 50 headers')
    .default({}),
  body: z
    .unknown()
    .optional()
    .refine(
      (b) =>
        b === undefined || Buffer.byteLength(typeof b === 'string' ? b : JSON.stringify(b)) <= MAX_BODY_BYTES,
      `at most ${MAX_BODY_BYTES} bytes`,
    ),
  timeoutMs: z.number().int().min(100).max(MAX_TARGET_TIMEOUT_MS).default(30_000),
});

export const retryRuleSchema = z.object({
  status: z.union([z.number().int().min(100).max(599), z.enum(['4xx', '5xx'])]),
  action: z.enum(['retry', 'dead']),
});

export const retrySchema = z.object({
  maxAttempts: z.number().int().min(1).max(100).default(5),
  initialBackoffMs: z.number().int().min(0).max(86_400_000).default(1000),
  maxBackoffMs: z.number().int().min(0).max(86_400_000).default(300_000),
  rules: z.array(retryRuleSchema).max(20).default([]),
});

export const taskNameSchema = z.string().min(1).max(200);
export const prioritySchema = z.enum(PRIORITIES);
export const laneSchema = z.enum(LANES);
export const metadataSchema = z.record(z.string(), z.unknown());

export const MAX_FLOW_PARALLELISM = 10_000;
export const MAX_FLOW_RATE_PER_SECOND = 10_000;
export const FLOW_CONTROL_LIMIT_ISSUE = 'give parallelism, ratePerSecond or both';

export const flowControlSchema = z
  .object({
    key: z
      .string()
      .min(1)
      .max(100)
      .describe('calls of this tenant sharing a key share the limits across the fleet (e.g. one endpoint)'),
    parallelism: z
      .number()
      .int()
      .min(1)
      .max(MAX_FLOW_PARALLELISM)
      .optional()
      .describe('calls of the key in flight at once'),
    ratePerSecond: z
      .number()
      .positive()
      .max(MAX_FLOW_RATE_PER_SECOND)
      .optional()
      .describe('calls of the key started per second'),
  })
  .superRefine((f, ctx) => {
    if (f.parallelism === undefined && f.ratePerSecond === undefined) {
      ctx.addIssue({ code: 'custom', path: ['parallelism'], message: FLOW_CONTROL_LIMIT_ISSUE });
    }
  })
  .describe('flow control per key (docs/flow-control.md): over-limit calls wait, they do not fail');

export function toFlowControl(f: z.infer<typeof flowControlSchema> | null | undefined): FlowControl | null {
  if (!f) return null;
  return { key: f.key, parallelism: f.parallelism ?? null, ratePerSecond: f.ratePerSecond ?? null };
}
export function toTarget(t: z.infer<typeof targetSchema>): Target {
  return {
    url: t.url,
    method: t.method,
    headers: t.headers,
    timeoutMs: t.timeoutMs,
    ...(t.body !== undefined ? { body: t.body } : {}),
  };
}
