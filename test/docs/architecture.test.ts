import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md stays true to the code where a machine can tell: its "MySQL tables" section
// lists exactly the tables of the committed schema dumps (packages/mysql/schema.sql for MariaDB,
// schema.mysql.sql for MySQL), its "Cassandra tables" section exactly those the Cassandra
// migrations leave (created, less dropped), and its layer table exactly the workspace dependencies
// of every package.json, and its table of packages/mysql's folders exactly what each folder's
// files import of the other folders. A migration that adds a table, or a package that takes a new dependency,
// fails here until ARCHITECTURE.md says so.

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const architecture = read('ARCHITECTURE.md');

/** The lines under the heading `title` (any level), up to the next heading of that level or higher. */
function section(markdown: string, title: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '').trim() === title);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no heading "${title}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The cells of a section's Markdown table rows (header and separator rows dropped). */
function rows(lines: string[]): string[][] {
  return lines
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .slice(1)
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

/** The `code` names in a table cell. */
const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function documentedTables(title: string): string[] {
  return rows(section(architecture, title))
    .flatMap((r) => names(r[0]!))
    .sort();
}

function dumpTables(path: string): string[] {
  return [...read(path).matchAll(/^CREATE TABLE `([a-z_0-9]+)`/gm)].map((m) => m[1]!).sort();
}

function cassandraTables(): string[] {
  const dir = 'packages/cassandra/migrations';
  const tables = new Set<string>();
  for (const file of readdirSync(join(REPO_ROOT, dir))
    .filter((f) => f.endsWith('.cql'))
    .sort()) {
    const text = read(`${dir}/${file}`).replace(/--[^\n]*/g, '');
    for (const m of text.matchAll(
      /\b(CREATE|DROP)\s+TABLE\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?(?:\w+\.)?(\w+)/gi,
    )) {
      if (m[1]!.toUpperCase() === 'CREATE') tables.add(m[2]!);
      else tables.delete(m[2]!);
    }
  }
  return [...tables].sort();
}

describe('ARCHITECTURE.md names every table of both stores, and no other', () => {
  it('MySQL: the tables of the MariaDB and the MySQL schema dumps', () => {
    const maria = dumpTables('packages/mysql/schema.sql');
    expect(maria).toContain('jobs');
    expect(maria.length).toBeGreaterThan(10);
    expect(dumpTables('packages/mysql/schema.mysql.sql')).toEqual(maria);
    expect(documentedTables('MySQL tables')).toEqual(maria);
  });

  it('Cassandra: the tables the migrations leave', () => {
    const tables = cassandraTables();
    expect(tables).toContain('jobs_by_id');
    expect(tables).toContain('workflow_runs');
    expect(tables).not.toContain('jobs_by_tenant'); // made by 0001, dropped by 0002
    expect(documentedTables('Cassandra tables')).toEqual(tables);
  });
});

it("ARCHITECTURE.md's layer table is every package's workspace dependencies", () => {
  const documented = new Map<string, string[]>();
  for (const r of rows(section(architecture, 'Layers: what imports what'))) {
    const deps = names(r[1]!).sort();
    for (const pkg of names(r[0]!).filter((n) => n.startsWith('@dsched/'))) documented.set(pkg, deps);
  }
  const actual = new Map<string, string[]>();
  for (const parent of ['packages', 'services', 'apps']) {
    for (const dir of readdirSync(join(REPO_ROOT, parent)).sort()) {
      let manifest: { name: string; dependencies?: Record<string, string> };
      try {
        manifest = JSON.parse(read(`${parent}/${dir}/package.json`));
      } catch {
        continue; // a folder without a package
      }
      const deps = Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith('@dsched/'));
      actual.set(manifest.name, deps.sort());
    }
  }
  expect(actual.size).toBeGreaterThan(10);
  expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...actual].sort()));
});

it("ARCHITECTURE.md's table of packages/mysql's folders is what each folder imports of the others", () => {
  const src = join(REPO_ROOT, 'packages/mysql/src');
  // The subsystem folders: those with an index.ts (the package's surface).
  const folders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const d = join(dir, e.name);
      if (existsSync(join(d, 'index.ts'))) folders.push(`${relative(src, d)}/`);
      walk(d);
    }
  };
  walk(src);
  const folderOf = (file: string) => {
    const rel = `${relative(src, dirname(file))}/`;
    return folders.filter((f) => rel.startsWith(f)).sort((a, b) => b.length - a.length)[0];
  };
  const actual = new Map<string, Set<string>>(folders.map((f) => [f, new Set()]));
  for (const folder of folders) {
    for (const e of readdirSync(join(src, folder), { withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts')) continue;
      const file = join(src, folder, e.name);
      for (const m of read(relative(REPO_ROOT, file)).matchAll(/from '(\.[^']+)'/g)) {
        const target = folderOf(resolve(dirname(file), m[1]!));
        if (target && target !== folder) actual.get(folder)!.add(target);
      }
    }
  }
  const documented = new Map<string, string[]>();
  for (const r of rows(section(architecture, 'Layers: what imports what'))) {
    const [name] = names(r[0]!);
    if (name && folders.includes(name))
      documented.set(
        name,
        names(r[2] ?? '')
          .map((n) => `${n}/`)
          .sort(),
      );
  }
  expect(folders).toContain('jobs/claim/');
  expect(Object.fromEntries([...documented].sort())).toEqual(
    Object.fromEntries([...actual].map(([f, s]) => [f, [...s].sort()]).sort()),
  );
});
