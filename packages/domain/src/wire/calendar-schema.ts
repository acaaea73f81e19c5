import { z } from 'zod';
import { MAX_CALENDAR_DATES, ON_EXCLUDED } from '../calendar/excluded-days.ts';

// The wire shape of a schedule's calendar (docs/api.md, docs/scheduling.md#calendars); calendar.ts checks what a schema
// cannot (a region date-holidays knows, a date that exists) and compiles it.

export const calendarSchema = z
  .object({
    holidays: z
      .string()
      .min(2)
      .max(16)
      .regex(
        /^[A-Za-z]{2}(-[A-Za-z0-9]{1,4})?(-[A-Za-z0-9]{1,6})?$/,
        'expected a country code (DE) or country-region (DE-BE)',
      )
      .optional()
      .describe(
        'public holidays of a country (DE) or country-region (DE-BE), as the date-holidays data knows them',
      ),
    weekends: z.boolean().optional().describe('Saturdays and Sundays are excluded'),
    dates: z
      .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'))
      .max(MAX_CALENDAR_DATES)
      .optional()
      .describe('explicit dates excluded, YYYY-MM-DD in the schedule’s zone'),
    onExcluded: z
      .enum(ON_EXCLUDED)
      .describe(
        'an occurrence on an excluded day: skipped, or moved to the same wall time of the next or previous business day',
      ),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        'interval schedules only: the zone whose days are judged (UTC by default); a cron schedule uses its own',
      ),
  })
  .describe('days the schedule does not fire on (docs/scheduling.md#calendars)')
  .meta({ id: 'Calendar' });
