import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { expect, it } from 'vitest';

// Every relative link in every Markdown file the repository tracks resolves: the file (or folder)
// exists, and a `#fragment` names a heading of the Markdown file it points into, as GitHub makes
// heading anchors. A doc that moves or renames a heading fails here, not in a reader's browser.
// Links to other sites are not fetched (the suite has no internet).

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, … as on GitHub). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(text).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = headingAnchor(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The text without its fenced code blocks. */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text with code blanked, fenced and inline (links inside code are not links). */
function withoutCode(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '``');
}

/** Inline links `[text](target)`, images `![alt](target)` and reference definitions `[x]: target`. */
function linksOf(text: string): string[] {
  const body = withoutCode(text);
  const links: string[] = [];
  for (const m of body.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(m[1]!);
  for (const m of body.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) links.push(m[1]!);
  return links;
}

const markdownFiles = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.md'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && existsSync(join(REPO_ROOT, f)));

it('finds the Markdown files', () => {
  expect(markdownFiles).toContain('README.md');
  expect(markdownFiles).toContain('ARCHITECTURE.md');
  expect(markdownFiles).toContain('docs/glossary.md');
});

it('resolves every relative link of every Markdown file, anchors included', () => {
  const anchors = new Map<string, Set<string>>();
  const anchorsFor = (file: string) => {
    let a = anchors.get(file);
    if (!a) {
      a = anchorsOf(readFileSync(file, 'utf8'));
      anchors.set(file, a);
    }
    return a;
  };
  const broken: string[] = [];
  for (const file of markdownFiles) {
    const path = join(REPO_ROOT, file);
    for (const link of linksOf(readFileSync(path, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:, …: another site
      const [target = '', fragment] = link.split('#', 2);
      const resolved = target === '' ? path : join(dirname(path), decodeURIComponent(target));
      const shown = `${file}: (${link})`;
      if (!resolved.startsWith(REPO_ROOT) || !existsSync(resolved)) {
        broken.push(`${shown} → no ${relative(REPO_ROOT, resolved) || resolved}`);
        continue;
      }
      if (fragment === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) continue;
      if (!anchorsFor(resolved).has(fragment.toLowerCase()))
        broken.push(`${shown} → no heading #${fragment} in ${relative(REPO_ROOT, resolved)}`);
    }
  }
  expect(broken).toEqual([]);
});

it('reads links, headings and code as GitHub does', () => {
  expect(headingAnchor('Pause on failure')).toBe('pause-on-failure');
  expect(headingAnchor('D33. The walk’s budget (`maxEdges`)')).toBe('d33-the-walks-budget-maxedges');
  expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n## The `x` command\n')]).toEqual([
    'a',
    'a-1',
    'the-x-command',
  ]);
  expect(linksOf('[a](x.md#y) `[b](no.md)` ![i](img.png "t")\n[r]: ../r.md\n```\n[c](no.md)\n```')).toEqual([
    'x.md#y',
    'img.png',
    '../r.md',
  ]);
});
