import { z } from 'zod';
import { fireTimesBetween } from '../calendar/schedule.ts';
import { describeSchedule } from '../words/schedule-description.ts';
import { parseScheduleText } from '../words/schedule-text.ts';
import { calendarSchema } from './calendar-schema.ts';
import { dstPolicySchema, scheduleTextSchema, textTimezoneSchema } from './task-spec.ts';
import { scheduleView } from './views.ts';

// POST /v1/schedules/parse: a phrase read as a task would read it, with its sentence and next
// fire times, nothing stored. And the shape every response gives a schedule in (`description`
// always, `text` when it came in words).

export const PARSE_NEXT_COUNT = 5;

export const scheduleParseSchema = z.object({ text: scheduleTextSchema, timezone: textTimezoneSchema });

const said = {
  description: z.string().describe('the schedule in one sentence, with its zone'),
  text: z.string().optional().describe('the words the schedule was given in, when it was'),
};

/**
 * A schedule as responses show it. Each kind is a named component: openapi-python-client builds a
 * union's inline objects again wherever the union is referenced, and refuses the duplicate models.
 */
export const scheduleViewSchema = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('once'), at: z.string(), timezone: z.string().optional(), ...said })
      .meta({ id: 'OnceScheduleView' }),
    z
      .object({
        type: z.literal('cron'),
        expression: z.string(),
        timezone: z.string(),
        dst: dstPolicySchema,
        calendar: calendarSchema.optional(),
        ...said,
      })
      .meta({ id: 'CronScheduleView' }),
    z
      .object({
        type: z.literal('interval'),
        every: z.string(),
        offset: z.string().optional(),
        startAt: z.string().optional(),
        calendar: calendarSchema.optional(),
        ...said,
      })
      .meta({ id: 'IntervalScheduleView' }),
  ])
  .meta({ id: 'ScheduleView' });

export const scheduleParseResultSchema = z
  .object({
    schedule: scheduleViewSchema.describe('what the words give: a cron, interval or once schedule'),
    description: z.string().describe('the schedule in one sentence'),
    next: z.array(z.string()).describe(`the next ${PARSE_NEXT_COUNT} fire times, RFC 3339 UTC`),
  })
  .meta({ id: 'ScheduleParse' });

export type ScheduleParseResult = z.infer<typeof scheduleParseResultSchema>;

/** The answer to POST /v1/schedules/parse, from the database clock `now`. */
export function parseForResponse(body: z.infer<typeof scheduleParseSchema>, now: Date): ScheduleParseResult {
  const schedule = parseScheduleText(body.text, { timezone: body.timezone, now, field: 'text' });
  const next = fireTimesBetween(schedule, now, new Date(8.64e15), PARSE_NEXT_COUNT).times;
  return {
    schedule: scheduleView(schedule) as ScheduleParseResult['schedule'],
    description: describeSchedule(schedule),
    next: next.map((t) => t.toISOString()),
  };
}
