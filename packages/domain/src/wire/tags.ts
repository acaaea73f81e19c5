import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalidArgument } from '../errors.ts';
import type { Tags } from '../model.ts';

// Tags: a small map of string to string on a task or a workflow (`{"team": "billing"}`), copied to
// every job and run made from it when it is made, and the filter `?tag=key:value` of every list.
// A tag is written `key:value` wherever it is one string (filters, index rows), so a key holds no
// colon; a value may.
//
// Limits (docs/tags.md): at most TAG_LIMITS.perResource tags; a key of 1–64 characters, a letter
// or digit then letters, digits, `_ . - /`; a value of 1–128 characters, no control characters;
// at most TAG_LIMITS.perFilter `tag` filters per list request, all of which must match.

export const TAG_LIMITS = { perResource: 10, keyLength: 64, valueLength: 128, perFilter: 5 } as const;

const KEY = /^[A-Za-z0-9][A-Za-z0-9_.\-/]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

const tagKeySchema = z
  .string()
  .min(1, `a tag key is 1-${TAG_LIMITS.keyLength} characters`)
  .max(TAG_LIMITS.keyLength, `a tag key is 1-${TAG_LIMITS.keyLength} characters`)
  .regex(KEY, 'a tag key starts with a letter or digit and holds letters, digits, _ . - / only');

const tagValueSchema = z
  .string()
  .min(1, `a tag value is 1-${TAG_LIMITS.valueLength} characters`)
  .max(TAG_LIMITS.valueLength, `a tag value is 1-${TAG_LIMITS.valueLength} characters`)
  .refine((v) => !CONTROL.test(v), 'a tag value holds no control characters');

/** The `tags` field of a task or a workflow: each key and value checked, the issue naming the key. */
export const tagsSchema = z
  .record(z.string(), z.string())
  .superRefine((tags, ctx) => {
    const keys = Object.keys(tags);
    if (keys.length > TAG_LIMITS.perResource) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `at most ${TAG_LIMITS.perResource} tags, not ${keys.length}`,
      });
    }
    for (const key of keys) {
      const k = tagKeySchema.safeParse(key);
      if (!k.success)
        ctx.addIssue({ code: 'custom', path: [key], message: `key: ${k.error.issues[0]!.message}` });
      const v = tagValueSchema.safeParse(tags[key]);
      if (!v.success) ctx.addIssue({ code: 'custom', path: [key], message: v.error.issues[0]!.message });
    }
  })
  .describe(
    `string to string, at most ${TAG_LIMITS.perResource}; keys 1-${TAG_LIMITS.keyLength} characters ` +
      `([A-Za-z0-9][A-Za-z0-9_.-/]*), values 1-${TAG_LIMITS.valueLength}; copied to every job and run made from it`,
  )
  .meta({
    id: 'Tags',
    maxProperties: TAG_LIMITS.perResource,
    propertyNames: { pattern: KEY.source, minLength: 1, maxLength: TAG_LIMITS.keyLength },
    additionalProperties: { type: 'string', minLength: 1, maxLength: TAG_LIMITS.valueLength },
  });

/**
 * A workflow task's runs carry its tags and its workflow body's together: the issue when that union
 * is over the limit (undefined when it fits).
 */
export function mergedTagsIssue(
  taskTags: Tags | null | undefined,
  bodyTags: Tags | null | undefined,
): string | undefined {
  const keys = new Set([...Object.keys(taskTags ?? {}), ...Object.keys(bodyTags ?? {})]);
  return keys.size > TAG_LIMITS.perResource
    ? `the task's and its workflow's tags together are ${keys.size} (its runs carry both): at most ${TAG_LIMITS.perResource}`
    : undefined;
}

/** A set of tags as `key:value` strings, sorted: what index rows store. */
export function tagStrings(tags: Tags | null | undefined): string[] {
  return Object.entries(tags ?? {})
    .map(([k, v]) => `${k}:${v}`)
    .sort();
}

/** Tags in key order (so equal sets print and compare the same), or null when there are none. */
export function normaliseTags(tags: Tags | null | undefined): Tags | null {
  const keys = Object.keys(tags ?? {}).sort();
  return keys.length === 0 ? null : Object.fromEntries(keys.map((k) => [k, tags![k]!]));
}

/**
 * The `tag` query parameter (repeatable), as a list's filter: each `key:value` within the limits,
 * at most TAG_LIMITS.perFilter, one value per key (two values of one key could never both match).
 * Throws invalid_argument naming `tag`. Undefined when no tag was asked for.
 */
export function parseTagFilter(raw: string | string[] | undefined): Tags | undefined {
  if (raw === undefined) return undefined;
  const given = Array.isArray(raw) ? raw : [raw];
  if (given.length === 0) return undefined;
  if (given.length > TAG_LIMITS.perFilter) {
    throw invalidArgument('tag', `at most ${TAG_LIMITS.perFilter} tag filters`);
  }
  const filter: Tags = {};
  for (const one of given) {
    const colon = one.indexOf(':');
    if (colon < 0) throw invalidArgument('tag', `"${one.slice(0, 80)}" is not key:value`);
    const key = one.slice(0, colon);
    const value = one.slice(colon + 1);
    const k = tagKeySchema.safeParse(key);
    if (!k.success) throw invalidArgument('tag', `key "${key.slice(0, 80)}": ${k.error.issues[0]!.message}`);
    const v = tagValueSchema.safeParse(value);
    if (!v.success) throw invalidArgument('tag', `value of ${key}: ${v.error.issues[0]!.message}`);
    if (filter[key] !== undefined && filter[key] !== value) {
      throw invalidArgument('tag', `${key} is asked for with two values; a tag has one`);
    }
    filter[key] = value;
  }
  return normaliseTags(filter) ?? undefined;
}

/** Whether `tags` holds every tag of `filter` (an absent filter matches everything). */
export function matchesTags(tags: Tags | null | undefined, filter: Tags | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([k, v]) => tags?.[k] === v);
}

/** The filter as one canonical string, for a page token's fingerprint. */
export function tagFilterKey(filter: Tags | undefined): string | undefined {
  return filter ? tagStrings(filter).join('\n') : undefined;
}

/**
 * A 64-bit hash of a `key:value` tag (the first 8 bytes of its SHA-256, signed), which history's
 * tag index rows carry for each tag of the job, so a filter of several tags is checked on the
 * index rows before any document is read. A collision only costs a document read: the document's
 * own tags have the final word.
 */
export function tagHash(tag: string): bigint {
  return createHash('sha256').update(tag).digest().readBigInt64BE(0);
}

/** The `tag` query parameter of every list: `key:value`, repeatable, all must match. */
export const tagQueryShape = {
  tag: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      `key:value; repeat it for several (all must match, at most ${TAG_LIMITS.perFilter}); live and archived rows alike`,
    ),
};
