import { stringify as toYaml } from 'yaml';
import { UsageError } from './exit-codes.ts';

// How a command's result is printed. `json` is the API's body unchanged, `jsonl` one item (or the
// body) per line, `yaml` the body as YAML, `table` columns for people. `--time relative` shows
// times in tables as "in 4m" or "2h ago"; `iso` as the API sent them.

export const FORMATS = ['table', 'json', 'jsonl', 'yaml'] as const;
export type Format = (typeof FORMATS)[number];
export const TIME_STYLES = ['relative', 'iso'] as const;
export type TimeStyle = (typeof TIME_STYLES)[number];

export interface OutputOptions {
  format: Format;
  time: TimeStyle;
  now: () => number;
}

export function outputOptions(flags: { output?: string; time?: string }): OutputOptions {
  const format = (flags.output ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`expected one of ${FORMATS.join(', ')}`, '--output');
  const time = (flags.time ?? 'relative') as TimeStyle;
  if (!TIME_STYLES.includes(time))
    throw new UsageError(`expected one of ${TIME_STYLES.join(', ')}`, '--time');
  return { format, time, now: Date.now };
}

/** What a command hands to the printer: the body, its items for jsonl, and a table for people. */
export interface Rendered {
  body: unknown;
  items?: unknown[];
  table: () => string;
}

export function render(result: Rendered, out: OutputOptions): string {
  switch (out.format) {
    case 'json':
      return result.body === undefined ? '' : `${JSON.stringify(result.body, null, 2)}\n`;
    case 'jsonl': {
      const items = result.items ?? (result.body === undefined ? [] : [result.body]);
      return items.map((i) => `${JSON.stringify(i)}\n`).join('');
    }
    case 'yaml':
      return result.body === undefined ? '' : toYaml(result.body);
    case 'table': {
      const text = result.table();
      return text === '' || text.endsWith('\n') ? text : `${text}\n`;
    }
  }
}

const UNITS: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'm'],
  [1000, 's'],
];

export function formatTime(value: unknown, out: OutputOptions): string {
  if (typeof value !== 'string' || value === '') return '-';
  if (out.time === 'iso') return value;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return value;
  const delta = at - out.now();
  const abs = Math.abs(delta);
  if (abs < 1000) return 'now';
  const parts: string[] = [];
  let rest = abs;
  for (const [ms, unit] of UNITS) {
    if (rest >= ms && parts.length < 2) {
      parts.push(`${Math.floor(rest / ms)}${unit}`);
      rest %= ms;
    }
  }
  return delta > 0 ? `in ${parts.join(' ')}` : `${parts.join(' ')} ago`;
}

export function cell(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Columns padded to their widest cell, two spaces apart; headers upper case. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...rows.map(line)].join('\n');
}

/** One object as FIELD  VALUE lines. */
export function fields(pairs: [string, string][]): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/**
 * A one-line progress message on stderr, only when stdout is a terminal (so a pipe or a file
 * never gets control characters); cleared before the next real output.
 */
export class Progress {
  readonly #enabled: boolean;
  #shown = false;
  constructor(enabled = process.stdout.isTTY === true && process.stderr.isTTY === true) {
    this.#enabled = enabled;
  }
  show(text: string): void {
    if (!this.#enabled) return;
    process.stderr.write(`\r\x1b[2K${text}`);
    this.#shown = true;
  }
  clear(): void {
    if (!this.#shown) return;
    process.stderr.write('\r\x1b[2K');
    this.#shown = false;
  }
}
