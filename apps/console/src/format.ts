import type { Task } from '@dsched/client/browser';

// Words and times for people: a schedule in the API's sentence with its zone, times in the
// browser's zone with the UTC instant in a tooltip.

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

/** A schedule in words (the API's own sentence, `description`) and the zone it is read in. */
export function scheduleWords(schedule: Task['schedule']): { words: string; zone: string } {
  switch (schedule.type) {
    case 'once':
      return { words: schedule.description, zone: schedule.timezone ?? 'UTC instant' };
    case 'cron':
      return { words: schedule.description, zone: schedule.timezone };
    case 'interval':
      return { words: schedule.description, zone: 'elapsed time' };
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

/**
 * A tag filter as typed: `key:value` pairs separated by commas (`team:billing, env:prod`). A comma
 * splits only where a key and its colon follow, so a value may hold one (`note:a,b`).
 */
export function parseTagInput(text: string): string[] {
  return text
    .split(/,(?=\s*[A-Za-z0-9][A-Za-z0-9_.\-/]*:)/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** A resource's tags as the filter would be typed: `env:prod, team:billing`. */
export function tagsText(tags: Record<string, string> | null | undefined): string {
  return Object.entries(tags ?? {})
    .map(([k, v]) => `${k}:${v}`)
    .join(', ');
}
