import { describe, expect, it } from 'vitest';
import { DschedError } from '../src/errors.ts';
import {
  matchesTags,
  mergedTagsIssue,
  normaliseTags,
  parseTagFilter,
  TAG_LIMITS,
  tagHash,
  tagStrings,
  tagsSchema,
} from '../src/wire/tags.ts';

function issueOf(fn: () => unknown): { field: string; issue: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DschedError);
    return (e as DschedError).details[0]!;
  }
  throw new Error('no error');
}

describe('tags on a task or a workflow', () => {
  it('takes keys of letters, digits and _ . - /, values of 1-128 characters, at most 10', () => {
    expect(
      tagsSchema.safeParse({ team: 'billing', 'k8s.io/zone': 'eu-west-1', 'a_b-c': 'x y: z' }).success,
    ).toBe(true);
    const bad = tagsSchema.safeParse({
      'Bad key': 'v',
      ok: '',
      long: 'x'.repeat(129),
      [`k${'x'.repeat(64)}`]: 'v',
    });
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual([
      'Bad key',
      'ok',
      'long',
      `k${'x'.repeat(64)}`,
    ]);
    expect(tagsSchema.safeParse({ ':team': 'v' }).success).toBe(false);
    expect(tagsSchema.safeParse({ team: 'line\nbreak' }).success).toBe(false);
    const many = Object.fromEntries(
      Array.from({ length: TAG_LIMITS.perResource + 1 }, (_, i) => [`k${i}`, 'v']),
    );
    expect(tagsSchema.safeParse(many).error?.issues[0]?.message).toMatch(/at most 10 tags/);
  });

  it('are stored in key order and indexed as key:value strings', () => {
    expect(normaliseTags({ z: '1', a: '2' })).toEqual({ a: '2', z: '1' });
    expect(Object.keys(normaliseTags({ z: '1', a: '2' })!)).toEqual(['a', 'z']);
    expect(normaliseTags({})).toBeNull();
    expect(tagStrings({ team: 'billing', env: 'prod:eu' })).toEqual(['env:prod:eu', 'team:billing']);
  });

  it('a workflow task’s and its body’s tags together stay within the limit', () => {
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`t${i}`, 'v']));
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`b${i}`, 'v']));
    expect(mergedTagsIssue(six, { t0: 'x' })).toBeUndefined();
    expect(mergedTagsIssue(six, five)).toMatch(/together are 11/);
  });
});

describe('the tag filter of a list', () => {
  it('reads key:value (a value may hold a colon), repeated up to 5, all of them', () => {
    expect(parseTagFilter(undefined)).toBeUndefined();
    expect(parseTagFilter('team:billing')).toEqual({ team: 'billing' });
    expect(parseTagFilter(['team:billing', 'url:http://x', 'team:billing'])).toEqual({
      team: 'billing',
      url: 'http://x',
    });
  });

  it('refuses what could never match or is over the limits, naming `tag`', () => {
    for (const bad of [
      'nocolon',
      ':v',
      'bad key:v',
      'k:',
      `k:${'v'.repeat(129)}`,
      ['team:a', 'team:b'],
      ['a:1', 'b:1', 'c:1', 'd:1', 'e:1', 'f:1'],
    ]) {
      expect(issueOf(() => parseTagFilter(bad)).field).toBe('tag');
    }
  });

  it('matches a document holding every tag of the filter', () => {
    const tags = { team: 'billing', env: 'prod' };
    expect(matchesTags(tags, undefined)).toBe(true);
    expect(matchesTags(tags, { team: 'billing' })).toBe(true);
    expect(matchesTags(tags, { team: 'billing', env: 'prod' })).toBe(true);
    expect(matchesTags(tags, { team: 'billing', env: 'dev' })).toBe(false);
    expect(matchesTags(null, { team: 'billing' })).toBe(false);
  });

  it('hashes a tag to a stable signed 64-bit number for history’s index rows', () => {
    expect(tagHash('team:billing')).toBe(tagHash('team:billing'));
    expect(tagHash('team:billing')).not.toBe(tagHash('team:billin'));
    expect(tagHash('team:billing') >= -(2n ** 63n) && tagHash('team:billing') < 2n ** 63n).toBe(true);
  });
});
