import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { UsageError } from './exit-codes.ts';
import type { Io } from './runtime.ts';

// Reading what the user typed: times and durations, files (-f task.yaml), @file arguments.

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

export function parseDuration(text: string, field: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new UsageError(`expected a duration like 90s, 15m, 2h or 7d, got "${text}"`, field);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/**
 * An RFC 3339 time, `now`, or a duration meaning that long ago (`--since 2h`) or, with
 * `future`, from now (`--in 5m`). Answers an RFC 3339 UTC string for the API.
 */
export function parseTime(
  text: string,
  field: string,
  now: number,
  direction: 'past' | 'future' = 'past',
): string {
  if (text === 'now') return new Date(now).toISOString();
  if (DURATION.test(text.trim())) {
    const ms = parseDuration(text, field);
    return new Date(direction === 'past' ? now - ms : now + ms).toISOString();
  }
  const at = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(at)) {
    throw new UsageError(
      `expected an RFC 3339 time (2026-12-01T09:00:00Z), "now" or a duration, got "${text}"`,
      field,
    );
  }
  return new Date(at).toISOString();
}

export function parseCount(text: string, field: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`expected a positive whole number, got "${text}"`, field);
  return n;
}

/** A tenant's fair-share weight, as the admin API takes it (docs/fair-share.md). */
export const MIN_WEIGHT = 0.001;
export const MAX_WEIGHT = 1000;

export function parseWeight(text: string, field: string): number {
  const w = Number(text);
  if (text.trim() === '' || !Number.isFinite(w) || w < MIN_WEIGHT || w > MAX_WEIGHT)
    throw new UsageError(`expected a weight from ${MIN_WEIGHT} to ${MAX_WEIGHT}, got "${text}"`, field);
  return w;
}

/** The text of a file, or of stdin for `-`. */
export async function readSource(path: string, io: Io, field: string): Promise<string> {
  if (path === '-') return io.readStdin();
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, field);
  }
}

/** A YAML or JSON document (JSON is YAML); must be an object. */
/** A YAML or JSON file (- for stdin), parsed; a parse error names the file and the flag. */
export async function readYaml(path: string, io: Io, field: string): Promise<unknown> {
  const text = await readSource(path, io, field);
  try {
    return parseYaml(text);
  } catch (err) {
    throw new UsageError(
      `${path} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`,
      field,
    );
  }
}

export async function readDocument(path: string, io: Io, field: string): Promise<Record<string, unknown>> {
  const doc = await readYaml(path, io, field);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UsageError(`${path} must hold an object`, field);
  }
  return doc as Record<string, unknown>;
}

/** `@file` (or `@-` for stdin) reads JSON from there; anything else is parsed as JSON itself. */
export async function readJsonArgument(value: string, io: Io, field: string): Promise<unknown> {
  const text = value.startsWith('@') ? await readSource(value.slice(1), io, field) : value;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError('expected JSON, or @file holding JSON', field);
  }
}

/** `Name: value` or `name=value` pairs, repeated. */
export function parsePairs(values: string[] | undefined, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const m = /^([^:=]+)[:=](.*)$/.exec(v);
    if (!m) throw new UsageError(`expected name:value or name=value, got "${v}"`, field);
    out[m[1]!.trim()] = m[2]!.trim();
  }
  return out;
}

/** `--tag key:value` of a create or an update, repeated: the tags map (the API checks the limits). */
export function parseTags(values: string[], field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const colon = v.indexOf(':');
    if (colon <= 0) throw new UsageError(`expected key:value, got "${v}"`, field);
    out[v.slice(0, colon)] = v.slice(colon + 1);
  }
  return out;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
