import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalidArgument } from '../errors.ts';
import { isId } from '../ids.ts';

// Every list of both APIs pages with one page-token format: base64url of
// `{"v": 2, "q": <query>, "k": <key>}`. `k` is the keyset position of the page's last item (its
// sort key: for jobs `[scheduledFor ms, id, range start ms]`, for tasks `[id]`, for nodes
// `[node id]` or `[node id, bucket]`), so the next page starts strictly after it and an item
// inserted or moved meanwhile causes no gap and no repeat. `q` fingerprints the query the token
// was issued for: the list (its route) and every filter that shapes it, the tenant included. A
// token replayed on another list, another tenant or other filters is refused (400 naming
// `pageToken`) instead of silently skipping or repeating items; so is one this API did not make.

/** The longest page token any list issues (a key of a 100-character node id fits with room). */
export const PAGE_TOKEN_MAX = 512;

/**
 * The `pageToken` query parameter as every list documents it: base64url text, at most
 * PAGE_TOKEN_MAX characters. What is inside is opaque and bound to the query that made it, so a
 * token of the right shape that this API did not issue is still refused (400 naming pageToken).
 */
export function pageTokenParam() {
  return z
    .string()
    .min(1)
    .max(PAGE_TOKEN_MAX)
    .regex(/^[A-Za-z0-9_-]+$/, 'malformed page token')
    .optional()
    .describe(
      'nextPageToken of the previous page (opaque base64url; refused unless this API issued it for the same query)',
    );
}

/**
 * What a token is bound to: the list it pages, named by its route (`GET /v1/tasks/{id}/runs`),
 * and the filters that shape it (the tenant, the path's ids, the query's filters; not the page
 * size, which may change between pages).
 */
export interface PageQuery {
  list: string;
  filters: Record<string, string | number | undefined>;
}

/** A page's keyset position: the sort key of its last item, as the list defines it. */
export type PageKey = readonly (string | number)[];

const TOKEN_VERSION = 2;

function fingerprint(query: PageQuery): string {
  const canonical = [
    `list=${query.list}`,
    ...Object.keys(query.filters)
      .sort()
      .map((k) => `${k}=${query.filters[k] ?? ''}`),
  ].join('&');
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/** The token of the page after the one whose last item has `key`. */
export function encodePageToken(query: PageQuery, key: PageKey): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, q: fingerprint(query), k: key }), 'utf8').toString(
    'base64url',
  );
}

/**
 * The position a token carries, if it was issued for `query`; `readKey` checks the key's shape
 * for this list (undefined: not one of its keys). Throws invalid_argument naming `pageToken`:
 * malformed, or issued for another query.
 */
export function decodePageToken<K>(
  token: string,
  query: PageQuery,
  readKey: (key: unknown[]) => K | undefined,
): K {
  const malformed = () => invalidArgument('pageToken', 'malformed page token');
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  const p = parsed as { v?: unknown; q?: unknown; k?: unknown } | null;
  if (
    p === null ||
    typeof p !== 'object' ||
    p.v !== TOKEN_VERSION ||
    typeof p.q !== 'string' ||
    !Array.isArray(p.k)
  )
    throw malformed();
  if (p.q !== fingerprint(query))
    throw invalidArgument('pageToken', 'the page token belongs to another query');
  const key = readKey(p.k);
  if (key === undefined) throw malformed();
  return key;
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

/**
 * A newest-first page's position. `from` is the range's lower bound as the first page resolved
 * it, so a default (`to` minus 7 days, from a `now` that moves) stays fixed across the pages of
 * one walk.
 */
export interface PagePosition {
  cursor: Cursor;
  from: Date;
}

/** The key of a newest-first job list: `[scheduledFor ms, id, range start ms]`. */
export function positionKey({ cursor, from }: PagePosition): PageKey {
  return [cursor.at.getTime(), cursor.id, from.getTime()];
}

export function readPositionKey(key: unknown[]): PagePosition | undefined {
  const [at, id, from] = key;
  if (key.length !== 3 || !Number.isSafeInteger(at) || !Number.isSafeInteger(from)) return undefined;
  if (typeof id !== 'string' || !(isId(id) || id === MIN_ID)) return undefined;
  return { cursor: { at: new Date(at as number), id }, from: new Date(from as number) };
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
  token: { query: PageQuery; from: Date },
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
  return { items, nextPageToken: encodePageToken(token.query, positionKey({ cursor, from: token.from })) };
}
