import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalidArgument } from '../errors.ts';
import { isId } from '../ids.ts';

// Keyset paging over lists ordered newest first by (scheduledFor, id). A page token carries the
// position of the last item returned, so the next page starts strictly after it: items inserted
// or moved (MySQL -> history) meanwhile never cause a gap or a repeat, because the position of a
// job never changes. The token also carries a fingerprint of the query that made it, so a token
// replayed against other filters is refused instead of silently skipping items.

/**
 * The `pageToken` query parameter as every list documents it: base64url text, at most `max`
 * characters. What is inside is opaque and bound to the query that made it, so a token of the
 * right shape that this API did not issue is still refused (400 naming pageToken).
 */
export function pageTokenParam(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'malformed page token')
    .optional()
    .describe(
      'nextPageToken of the previous page (opaque base64url; refused unless this API issued it for the same query)',
    );
}

/** An exclusive upper bound: the next page holds items strictly older than this position. */
export interface Cursor {
  at: Date;
  id: string;
}

/** Sorts below every real (version 7) id, so `(to, MIN_ID)` excludes items at exactly `to`. */
export const MIN_ID = '00000000-0000-0000-0000-000000000000';

export function firstCursor(to: Date): Cursor {
  return { at: to, id: MIN_ID };
}

export function queryFingerprint(parts: Record<string, string | number | undefined>): string {
  const canonical = Object.keys(parts)
    .sort()
    .map((k) => `${k}=${parts[k] ?? ''}`)
    .join('&');
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/**
 * A page's position. `from` is the range's lower bound as the first page resolved it, so a
 * default (`to` minus 7 days, from a `now` that moves) stays fixed across the pages of one walk.
 */
export interface PagePosition {
  cursor: Cursor;
  from: Date;
}

export function encodePageToken(fingerprint: string, position: PagePosition): string {
  const { cursor, from } = position;
  return Buffer.from(
    JSON.stringify({ v: 1, q: fingerprint, t: cursor.at.getTime(), i: cursor.id, f: from.getTime() }),
    'utf8',
  ).toString('base64url');
}

export function decodePageToken(token: string, fingerprint: string): PagePosition {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidArgument('pageToken', 'malformed page token');
  }
  const p = parsed as { v?: unknown; q?: unknown; t?: unknown; i?: unknown; f?: unknown };
  if (
    p === null ||
    typeof p !== 'object' ||
    p.v !== 1 ||
    typeof p.t !== 'number' ||
    !Number.isSafeInteger(p.t) ||
    typeof p.f !== 'number' ||
    !Number.isSafeInteger(p.f) ||
    typeof p.i !== 'string' ||
    !(isId(p.i) || p.i === MIN_ID)
  ) {
    throw invalidArgument('pageToken', 'malformed page token');
  }
  if (p.q !== fingerprint) throw invalidArgument('pageToken', 'the page token belongs to another query');
  return { cursor: { at: new Date(p.t), id: p.i }, from: new Date(p.f) };
}

/** Newest first: later scheduledFor first, then the larger id (byte order = hex text order). */
export function compareNewestFirst(
  a: { scheduledFor: string; id: string },
  b: { scheduledFor: string; id: string },
): number {
  const ta = Date.parse(a.scheduledFor);
  const tb = Date.parse(b.scheduledFor);
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

/**
 * Merges newest-first slices of live (MySQL) and archived (history) jobs into one page. A job in
 * both (the archiver wrote it and has not deleted it yet) is taken from MySQL, which is
 * authoritative while the row exists. Each source was asked for `limit + 1` items; `more` says
 * whether a source had more than it returned.
 */
export function mergeNewestFirst<T extends { scheduledFor: string; id: string }>(
  sources: { items: T[]; more: boolean }[],
  limit: number,
  token: { fingerprint: string; from: Date },
): Page<T> {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const item of sources.flatMap((s) => s.items).sort(compareNewestFirst)) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    merged.push(item);
  }
  const items = merged.slice(0, limit);
  const more = merged.length > limit || sources.some((s) => s.more);
  const last = items.at(-1);
  if (!more || !last) return { items };
  const cursor = { at: new Date(last.scheduledFor), id: last.id };
  return { items, nextPageToken: encodePageToken(token.fingerprint, { cursor, from: token.from }) };
}
