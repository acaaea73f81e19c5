import { z } from 'zod';
import { invalidArgument } from '../errors.ts';
import { JOB_STATES } from '../model.ts';
import { pageTokenParam } from './paging.ts';
import { tagQueryShape } from './tags.ts';

// The request shapes of job-api (and of the audit route), as zod schemas: they validate requests
// and generate the OpenAPI document, so the two cannot drift apart.

const time = z.iso.datetime({ offset: true }).describe('RFC 3339 time');

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/** The longest range a list or audit may ask for. */
export const MAX_RANGE_DAYS = 366;
/** A range without `from` looks back this far from `to`. */
export const DEFAULT_RANGE_DAYS = 7;

export const pageQueryShape = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`page size, at most ${MAX_PAGE_SIZE}`),
  pageToken: pageTokenParam(),
};

const rangeShape = {
  from: time.optional().describe('inclusive lower bound on scheduledFor (default: `to` minus 7 days)'),
  to: time.optional().describe('exclusive upper bound on scheduledFor (default: now)'),
};

export function checkRange(
  q: { from?: string | undefined; to?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (q.from === undefined || q.to === undefined) return;
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (from >= to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be before `to`' });
  else if (to - from > MAX_RANGE_DAYS * 86_400_000)
    ctx.addIssue({
      code: 'custom',
      path: ['from'],
      message: `the range may span at most ${MAX_RANGE_DAYS} days`,
    });
}

export const runsQuerySchema = z
  .object({ ...rangeShape, ...tagQueryShape, ...pageQueryShape })
  .superRefine(checkRange);

export const jobListQuerySchema = z
  .object({ state: z.enum(JOB_STATES).optional(), ...rangeShape, ...tagQueryShape, ...pageQueryShape })
  .superRefine(checkRange);

export const dlqQuerySchema = z.object({ ...tagQueryShape, ...pageQueryShape });

export const MAX_BULK_REDRIVE = 10_000;

export const bulkRedriveSchema = z
  .object({
    jobIds: z.array(z.uuid()).min(1).max(1000).optional(),
    taskId: z.uuid().optional(),
  })
  .refine((b) => b.jobIds !== undefined || b.taskId !== undefined, {
    path: ['jobIds'],
    message: 'give jobIds, taskId or both',
  })
  // The refinement above, as the document states it.
  .meta({ anyOf: [{ required: ['jobIds'] }, { required: ['taskId'] }] });

export const auditQuerySchema = z
  .object({ from: time, to: time })
  .superRefine(checkRange)
  .describe('the range of scheduled times to audit');

export const idParamsSchema = z.object({ id: z.string().describe('an id') });

/** Resolves the optional range of a list query against `now`. */
export function resolveRange(q: { from?: string | undefined; to?: string | undefined }, now: Date) {
  const to = q.to !== undefined ? new Date(q.to) : now;
  const from =
    q.from !== undefined ? new Date(q.from) : new Date(to.getTime() - DEFAULT_RANGE_DAYS * 86_400_000);
  if (from.getTime() >= to.getTime()) throw invalidArgument('from', 'must be before `to`');
  return { from, to };
}
