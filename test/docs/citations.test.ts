import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { expect, it } from 'vitest';

// The project's docs stand alone: code and docs cite the repository's own pages (docs/, README.md,
// ARCHITECTURE.md), never a contract kept outside it. Two checks over every tracked text file:
// no citation of API.md, DESIGN.md or STYLE.md (pages of the founding brief that are not in the
// repository; what they said lives in docs/api.md, docs/design.md and docs/glossary.md) nor of a
// path outside the checkout (../shared; a build machine's /work/shared, /work/bin, /work/stack…,
// which a reader's checkout does not have); and every `docs/<page>.md` a file names exists. (Links
// inside Markdown are checked by markdown-links.test.ts.)

const TEXT = /\.(ts|tsx|mts|js|mjs|sql|cql|sh|ya?ml|md|py|go|toml|tpl|txt)$|(^|\/)(Dockerfile|CODEOWNERS)$/;
/** Generated files that keep copies of old sources; they are rewritten, never read by a person. */
const GENERATED = /(^|\/)stryker-incremental\.json$/;
/**
 * Citations that may not be fixed where they are: an applied migration is never edited (its page
 * became docs/sql-portability.md).
 */
const FROZEN = new Set(['packages/mysql/migrations/0001_init.sql docs/sql.md']);

/** This file names what it looks for. */
const SELF = 'test/docs/citations.test.ts';

const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && TEXT.test(f) && !GENERATED.test(f) && f !== SELF && existsSync(join(REPO_ROOT, f)));

const OUTSIDE =
  /(?<![\w/.-])(API|DESIGN|STYLE)\.md\b|\.\.\/shared\b|\/work\/(shared|bin|stack|wt|main|logs|TEAM\.md)\b/g;
const DOCS_PAGE = /(?<![\w/.-])docs\/[\w/-]+\.md\b/g;

it('no file cites API.md, DESIGN.md, STYLE.md or a path outside the checkout', () => {
  expect(files.length).toBeGreaterThan(500);
  const found: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(REPO_ROOT, f), 'utf8');
    for (const m of text.matchAll(OUTSIDE)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push(`${f}:${line}: ${m[0]}`);
    }
  }
  expect(found).toEqual([]);
});

it('every docs/<page>.md a file names exists', () => {
  const missing: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(REPO_ROOT, f), 'utf8');
    for (const m of text.matchAll(DOCS_PAGE)) {
      if (existsSync(join(REPO_ROOT, m[0])) || FROZEN.has(`${f} ${m[0]}`)) continue;
      missing.push(`${f}: ${m[0]}`);
    }
  }
  expect(missing).toEqual([]);
});
