import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '@dsched/testkit/names';
import { parse } from 'yaml';

// The metric names the dashboard and the alert rules query, and the names the services promise
// (docs/metrics.md), so a test can hold one against the other and against live scrapes.

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'Inf', 'NaN']);

/** Metric names in a PromQL expression (strings, label matchers, ranges and grouping removed). */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w$.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1]!)) continue; // a function or aggregation, or a keyword
    names.add(m[1]!);
  }
  return [...names];
}

/** Every PromQL expression of the Grafana dashboard, with the panel it belongs to. */
export function dashboardQueries(path = `${REPO_ROOT}deploy/grafana/dashboards/dsched.json`) {
  // biome-ignore lint/suspicious/noExplicitAny: dashboard JSON
  const dashboard = JSON.parse(readFileSync(path, 'utf8')) as any;
  // biome-ignore lint/suspicious/noExplicitAny: dashboard JSON
  const panels: any[] = dashboard.panels.flatMap((p: any) => [p, ...(p.panels ?? [])]);
  return panels.flatMap((p) =>
    // biome-ignore lint/suspicious/noExplicitAny: dashboard JSON
    (p.targets ?? []).map((t: any) => ({ where: `panel "${p.title}"`, expr: String(t.expr) })),
  );
}

/** Every expression of the alert rules, with its alert name. */
export function ruleQueries(path = `${REPO_ROOT}deploy/prometheus/rules/dsched-alerts.yml`) {
  const rules = parse(readFileSync(path, 'utf8')) as {
    groups: { rules: { alert?: string; record?: string; expr: string }[] }[];
  };
  return rules.groups.flatMap((g) =>
    g.rules.map((r) => ({ where: `alert ${r.alert ?? r.record}`, expr: r.expr })),
  );
}

export const SLO_RULES = `${REPO_ROOT}deploy/prometheus/rules/dsched-slos.yml`;

/** The series the recording rules make (name to the labels they carry), e.g. the SLOs' `dsched:…`. */
export function recordedSeries(path = SLO_RULES): Map<string, Set<string>> {
  const rules = parse(readFileSync(path, 'utf8')) as {
    groups: { rules: { record?: string; expr: string; labels?: Record<string, string> }[] }[];
  };
  const recorded = new Map<string, Set<string>>();
  for (const r of rules.groups.flatMap((g) => g.rules)) {
    if (!r.record) continue;
    const labels = recorded.get(r.record) ?? new Set<string>();
    for (const l of Object.keys(r.labels ?? {})) labels.add(l);
    recorded.set(r.record, labels);
  }
  // A rule over recorded series keeps their labels (the budget left keeps `slo`).
  for (const r of rules.groups.flatMap((g) => g.rules)) {
    if (!r.record) continue;
    for (const n of metricNames(r.expr))
      for (const l of recorded.get(n) ?? []) recorded.get(r.record)!.add(l);
  }
  return recorded;
}

export interface CatalogueEntry {
  name: string;
  type: string;
  labels: string[];
  exportedBy: string[];
}

/** The metric catalogue of docs/metrics.md: `| \`name\` | type | labels | exported by | meaning |`. */
export function metricCatalogue(path = `${REPO_ROOT}docs/metrics.md`): Map<string, CatalogueEntry> {
  const entries = new Map<string, CatalogueEntry>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([a-z_:][a-z0-9_:]*)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    const list = (cell = '') =>
      cell
        .split(',')
        .map((s) => s.replace(/`/g, '').trim())
        .filter(Boolean);
    entries.set(name, { name, type: cells[2]!, labels: list(cells[3]), exportedBy: list(cells[4]) });
  }
  return entries;
}

/** The metric family a sample name belongs to: histogram series drop _bucket, _sum, _count. */
export function familyOf(name: string, isHistogram: (family: string) => boolean): string {
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  return m && isHistogram(m[1]!) ? m[1]! : name;
}

/** Families in a Prometheus text scrape: name to type, from the # HELP and # TYPE lines. */
export function scrapedFamilies(text: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const line of text.split('\n')) {
    const help = /^# HELP (\S+)/.exec(line);
    if (help && !families.has(help[1]!)) families.set(help[1]!, 'untyped');
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) families.set(type[1]!, type[2]!);
  }
  return families;
}

/** Label names a PromQL expression matches on or groups by. */
export function labelNames(expr: string): string[] {
  const names = new Set<string>();
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const m of bare.matchAll(/\{([^}]*)\}/g))
    for (const l of m[1]!.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) names.add(l[1]!);
  for (const m of bare.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g))
    for (const l of m[1]!.split(',')) if (l.trim()) names.add(l.trim());
  return [...names];
}
