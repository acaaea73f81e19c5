import type { Task } from '@dsched/client/browser';

// Words and times for people: a schedule in plain words with its zone, times in the browser's
// zone with the UTC instant in a tooltip.

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.round((now - Date.parse(iso)) / 1000);
  const abs = Math.abs(s);
  const unit =
    abs < 60
      ? `${abs}s`
      : abs < 3600
        ? `${Math.round(abs / 60)}m`
        : abs < 86400
          ? `${Math.round(abs / 3600)}h`
          : `${Math.round(abs / 86400)}d`;
  return s >= 0 ? `${unit} ago` : `in ${unit}`;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function cronWords(expression: string): string {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return `cron ${expression}`;
  const [min, hour, dom, mon, dow] = parts as [string, string, string, string, string];
  const at =
    /^\d+$/.test(min) && /^\d+$/.test(hour) ? `at ${hour.padStart(2, '0')}:${min.padStart(2, '0')}` : '';
  let days = '';
  if (dom === '*' && mon === '*') {
    if (dow === '*') days = 'every day';
    else if (dow === '1-5') days = 'on weekdays';
    else if (/^\d$/.test(dow)) days = `every ${DAYS[Number(dow) % 7]}`;
  }
  if (min.startsWith('*/') && hour === '*' && dom === '*' && mon === '*' && dow === '*')
    return `every ${min.slice(2)} minutes`;
  if (min === '*' && hour === '*' && dom === '*' && mon === '*' && dow === '*') return 'every minute';
  if (/^\d+$/.test(min) && hour === '*' && dom === '*' && mon === '*' && dow === '*')
    return `every hour at :${min.padStart(2, '0')}`;
  if (at && days) return `${days} ${at}`;
  return `cron ${expression}`;
}

export function scheduleWords(schedule: Task['schedule']): { words: string; zone: string } {
  switch (schedule.type) {
    case 'once':
      return { words: `once at ${when(schedule.at)}`, zone: 'UTC instant' };
    case 'cron':
      return { words: cronWords(schedule.expression), zone: schedule.timezone };
    case 'interval':
      return {
        words: `every ${schedule.every}${schedule.offset ? ` (offset ${schedule.offset})` : ''}`,
        zone: 'elapsed time',
      };
  }
}

/** `datetime-local` value (browser zone) → RFC 3339 UTC. */
export function fromLocalInput(value: string): string {
  return new Date(value).toISOString();
}

export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
