import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { run } from './support/tools.ts';

// The alert rules with promtool (syntax, and the unit tests of tests/dsched-alerts.test.yml),
// the compose Prometheus config, and the dashboard JSON. Which metrics they may use is checked
// against live scrapes in metrics.test.ts.

const RULES = 'deploy/prometheus/rules/dsched-alerts.yml';
const RULE_TESTS = 'deploy/prometheus/tests/dsched-alerts.test.yml';
const SLO_RULES = 'deploy/prometheus/rules/dsched-slos.yml';
const SLO_TESTS = 'deploy/prometheus/tests/dsched-slos.test.yml';
const read = (path: string) => readFileSync(`${REPO_ROOT}${path}`, 'utf8');
const alerts: { alert: string; annotations: Record<string, string>; labels: Record<string, string> }[] =
  parse(read(RULES)).groups.flatMap((g: { rules: unknown[] }) => g.rules);

describe('Prometheus alert rules', () => {
  it('pass promtool check rules', () => {
    const r = run('promtool', ['check', 'rules', RULES]);
    expect(r.stdout).toMatch(new RegExp(`SUCCESS: ${alerts.length} rules found`));
    expect(r.status).toBe(0);
  });

  it('pass their promtool unit tests', () => {
    const r = run('promtool', ['test', 'rules', RULE_TESTS]);
    expect(r.stdout + r.stderr).toMatch(/SUCCESS/);
    expect(r.status).toBe(0);
  });

  it('the unit tests fail when a threshold is wrong', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsched-rules-'));
    try {
      cpSync(`${REPO_ROOT}deploy/prometheus`, dir, { recursive: true });
      const rules = `${dir}/rules/dsched-alerts.yml`;
      writeFileSync(
        rules,
        readFileSync(rules, 'utf8').replace(
          'max(dsched_archiver_lag_seconds) > 900',
          'max(dsched_archiver_lag_seconds) > 9000',
        ),
      );
      const r = run('promtool', ['test', 'rules', `${dir}/tests/dsched-alerts.test.yml`]);
      expect(r.status).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(/alertname: DschedArchiverLagHigh/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every alert has a severity, a unit test and a section of the operator guide', () => {
    const tests = read(RULE_TESTS);
    const guide = read('docs/operations.md');
    expect(alerts.length).toBeGreaterThanOrEqual(15);
    for (const a of alerts) {
      expect(['critical', 'warning'], a.alert).toContain(a.labels.severity);
      expect(tests, a.alert).toContain(`alertname: ${a.alert}`);
      expect(a.annotations.runbook, a.alert).toBe(`docs/operations.md#${a.alert.toLowerCase()}`);
      expect(guide, a.alert).toMatch(new RegExp(`^#### ${a.alert}$`, 'm'));
    }
  });

  it('the SLO rules pass promtool check rules and their unit tests', () => {
    const groups: { rules: { alert?: string; record?: string }[] }[] = parse(read(SLO_RULES)).groups;
    const count = groups.flatMap((g) => g.rules).length;
    const check = run('promtool', ['check', 'rules', SLO_RULES]);
    expect(check.stdout).toMatch(new RegExp(`SUCCESS: ${count} rules found`));
    const tests = run('promtool', ['test', 'rules', SLO_TESTS]);
    expect(tests.stdout + tests.stderr).toMatch(/SUCCESS/);
    expect(tests.status).toBe(0);
    const guide = read('docs/operations.md');
    for (const a of groups.flatMap((g) => g.rules).filter((r) => r.alert)) {
      expect(read(SLO_TESTS), a.alert).toContain(`alertname: ${a.alert}`);
      expect(guide, a.alert).toMatch(new RegExp(`^#### ${a.alert}$`, 'm'));
    }
  });

  it('the SLO unit tests fail when a burn rate or a window is wrong', () => {
    for (const [from, to, alert] of [
      ['(14.4 * (1', '(24.4 * (1', 'DschedSLOFastBurn'],
      ['ratio_rate30m > on (slo) (6 *', 'ratio_rate6h > on (slo) (6 *', 'DschedSLOSlowBurn'],
      [
        'dsched:slo_errors:ratio_rate5m > on (slo) (14.4',
        'dsched:slo_errors:ratio_rate1h > on (slo) (14.4',
        'DschedSLOFastBurn',
      ],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'dsched-slos-'));
      try {
        cpSync(`${REPO_ROOT}deploy/prometheus`, dir, { recursive: true });
        const rules = `${dir}/rules/dsched-slos.yml`;
        const text = readFileSync(rules, 'utf8');
        expect(text, from).toContain(from);
        writeFileSync(rules, text.replace(from, to));
        const r = run('promtool', ['test', 'rules', `${dir}/tests/dsched-slos.test.yml`]);
        expect(r.status, from).not.toBe(0);
        expect(r.stdout + r.stderr, from).toMatch(new RegExp(`alertname: ${alert}`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('the compose Prometheus config passes promtool check config', () => {
    const r = run('promtool', ['check', 'config', 'deploy/prometheus/prometheus.yml']);
    expect(r.stdout + r.stderr).toMatch(/is valid prometheus config file syntax/);
    expect(r.status).toBe(0);
  });
});

describe('Grafana dashboard', () => {
  // biome-ignore lint/suspicious/noExplicitAny: dashboard JSON
  const dashboard: any = JSON.parse(read('deploy/grafana/dashboards/dsched.json'));
  // biome-ignore lint/suspicious/noExplicitAny: dashboard JSON
  const panels: any[] = dashboard.panels.filter((p: any) => p.type !== 'row');

  it('parses, has a stable uid and queries Prometheus through the datasource variable', () => {
    expect(dashboard.uid).toBe('dsched-overview');
    expect(dashboard.templating.list[0]).toMatchObject({
      name: 'datasource',
      type: 'datasource',
      query: 'prometheus',
    });
    expect(panels.length).toBeGreaterThanOrEqual(20);
    for (const p of panels) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(p.targets.length, p.title).toBeGreaterThan(0);
      expect(p.description, p.title).toBeTruthy();
    }
  });

  it('panels do not overlap', () => {
    const cells = new Set<string>();
    // biome-ignore lint/suspicious/noExplicitAny: dashboard JSON
    for (const p of dashboard.panels as any[]) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++)
        for (let j = y; j < y + h; j++) {
          expect(cells.has(`${i},${j}`), `${p.title} overlaps at ${i},${j}`).toBe(false);
          cells.add(`${i},${j}`);
        }
    }
  });
});
