import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSecretsKeyring } from '@dsched/domain';
import { REPO_ROOT } from '@dsched/testkit/names';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  byKind,
  type Manifest,
  parseManifests,
  podSpec,
  servicesProblems,
  validateManifests,
} from './support/k8s.ts';
import { run, runOk } from './support/tools.ts';

// The Helm chart: lint, render with the default, a minimal and an HA values file, validate the
// output against the Kubernetes schemas, and check what the chart promises operators.

const CHART = 'deploy/helm/dsched';
const VALUES = {
  default: [] as string[],
  minimal: ['-f', `${CHART}/ci/minimal-values.yaml`],
  ha: ['-f', `${CHART}/ci/ha-values.yaml`],
};
type ValuesName = keyof typeof VALUES;

const render = (values: ValuesName, extra: string[] = []) =>
  parseManifests(
    runOk('helm', [
      'template',
      'dsched',
      CHART,
      '--namespace',
      'ops',
      '--kube-version',
      '1.33.0',
      ...VALUES[values],
      ...extra,
    ]),
  );
const rendered: Record<ValuesName, Manifest[]> = {
  default: render('default'),
  minimal: render('minimal'),
  ha: render('ha'),
};
const shutdownGraceMs = (ms: Manifest[]) =>
  Number(byKind(ms, 'ConfigMap').find((c) => c.metadata.name.endsWith('-config'))!.data!.SHUTDOWN_GRACE_MS);

describe('helm chart deploy/helm/dsched', () => {
  it.each(Object.keys(VALUES) as ValuesName[])('passes helm lint --strict with %s values', (values) => {
    const r = run('helm', ['lint', '--strict', CHART, ...VALUES[values]]);
    expect(r.stdout + r.stderr).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(r.status).toBe(0);
  });

  it.each(Object.keys(VALUES) as ValuesName[])(
    'renders %s values that validate against the Kubernetes schemas (strict, 1.27 and 1.37)',
    (values) => {
      expect(rendered[values].length).toBeGreaterThan(20);
      expect(validateManifests(rendered[values])).toEqual([]);
    },
  );

  it('the validation it relies on rejects an unknown field and a wrong type', () => {
    const broken = structuredClone(rendered.default);
    const [a, b] = byKind(broken, 'Deployment');
    podSpec(a!).containers[0].readinesProbe = podSpec(a!).containers[0].readinessProbe;
    b!.spec.replicas = 'two';
    const problems = validateManifests(broken);
    expect(problems.join('\n')).toMatch(/readinesProbe/);
    expect(problems.join('\n')).toMatch(/'two' is not of type/);
    const monitor = rendered.ha.find((m) => m.kind === 'ServiceMonitor')!;
    expect(validateManifests([{ ...monitor, spec: { endpoints: [{ port: 9090 }] } }]).join()).toMatch(
      /selector/,
    );
  });

  it.each(Object.keys(VALUES) as ValuesName[])(
    'with %s values every service probes, is hardened, budgeted and outlives its shutdown grace',
    (values) => {
      expect(servicesProblems(rendered[values], shutdownGraceMs(rendered[values]))).toEqual([]);
    },
  );

  it('follows SHUTDOWN_GRACE_MS: 40 s of grace gives the pods 50 s to stop', () => {
    expect(shutdownGraceMs(rendered.ha)).toBe(40_000);
    const api = byKind(rendered.ha, 'Deployment').find((d) => d.metadata.name.endsWith('task-api'))!;
    expect(podSpec(api).terminationGracePeriodSeconds).toBe(50);
  });

  it('defaults to HA: replicas, spreading, the executor autoscaled', () => {
    const ms = rendered.default;
    for (const d of byKind(ms, 'Deployment')) {
      const component = d.metadata.labels!['app.kubernetes.io/component']!;
      const affinity = podSpec(d).affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
      expect(affinity[0].podAffinityTerm.topologyKey, component).toBe('kubernetes.io/hostname');
      if (component === 'executor') expect(d.spec.replicas).toBeUndefined();
      else expect(d.spec.replicas, component).toBeGreaterThanOrEqual(2);
    }
    const [hpa] = byKind(ms, 'HorizontalPodAutoscaler');
    expect(hpa!.spec.scaleTargetRef.name).toMatch(/-executor$/);
    expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
    const hard = byKind(rendered.ha, 'Deployment').map(
      (d) => podSpec(d).affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution,
    );
    expect(hard.every((terms) => terms?.[0]?.topologyKey === 'kubernetes.io/hostname')).toBe(true);
  });

  it('sends spans to the OTLP endpoint of tracing.otlpEndpoint, and nowhere without one', () => {
    const config = (ms: Manifest[]) =>
      byKind(ms, 'ConfigMap').find((c) => c.metadata.name === 'dsched-config')!.data!;
    expect(config(rendered.ha)).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.monitoring:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      CONSOLE_TRACE_URL: 'https://jaeger.example.com/trace/{traceId}',
    });
    expect(Object.keys(config(rendered.default)).filter((k) => k.startsWith('OTEL_'))).toEqual([]);
    const egress = (ms: Manifest[]) =>
      byKind(ms, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('-default'))!.spec.egress;
    expect(egress(rendered.ha)).toContainEqual({
      to: [{ ipBlock: { cidr: '10.40.0.0/16' } }],
      ports: [{ protocol: 'TCP', port: 4318 }],
    });
    expect(JSON.stringify(egress(rendered.default))).not.toContain('4318');
    const badRatio = run('helm', ['template', 'dsched', CHART, '--set', 'tracing.samplerRatio=2']);
    expect(badRatio.status).not.toBe(0);
    expect(badRatio.stderr).toMatch(/tracing\/samplerRatio/);
  });

  it('runs the migrations as a hook Job before install and upgrade, with the credentials', () => {
    for (const ms of [rendered.default, rendered.minimal]) {
      const [job] = byKind(ms, 'Job');
      expect(job!.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      const container = podSpec(job!).containers[0];
      expect(container.args).toEqual(['migrate']);
      expect(container.envFrom[0].secretRef.name).toBe(
        podSpec(byKind(ms, 'Deployment')[0]!).containers[0].envFrom[1].secretRef.name,
      );
      expect(container.env.map((e: { name: string }) => e.name)).toContain('CASSANDRA_KEYSPACE');
    }
    // the chart-made Secret is a hook too, created before the Job that needs it
    const secret = byKind(rendered.minimal, 'Secret')[0]!;
    expect(Number(secret.metadata.annotations!['helm.sh/hook-weight'])).toBeLessThan(0);
    expect(secret.stringData!.DATABASE_URL).toMatch(/^mysql:\/\//);
    // the key that seals tenant signing secrets, in the form the services accept
    expect(parseSecretsKeyring(secret.stringData!.DSCHED_SECRETS_KEY!).current.key).toHaveLength(32);
    expect(byKind(rendered.default, 'Secret')).toEqual([]);
  });

  it('has a ConfigMap, network policies, and the monitoring objects only when asked', () => {
    expect(byKind(rendered.default, 'ConfigMap').map((c) => c.metadata.name)).toEqual(['dsched-config']);
    expect(byKind(rendered.default, 'NetworkPolicy')).toHaveLength(7);
    expect(byKind(rendered.minimal, 'NetworkPolicy')).toHaveLength(0);
    const executorPolicy = byKind(rendered.default, 'NetworkPolicy').find((p) =>
      p.metadata.name.endsWith('executor'),
    )!;
    expect(executorPolicy.spec.egress[0].to[0].ipBlock.except).toContain('169.254.0.0/16');
    expect(rendered.default.filter((m) => m.apiVersion.startsWith('monitoring.coreos.com'))).toEqual([]);

    const [monitor] = byKind(rendered.ha, 'ServiceMonitor');
    expect(monitor!.spec.endpoints.every((e: { honorLabels: boolean }) => e.honorLabels)).toBe(true);
    const [rule] = byKind(rendered.ha, 'PrometheusRule');
    const rules = (file: string) =>
      parse(readFileSync(`${REPO_ROOT}deploy/prometheus/rules/${file}`, 'utf8'));
    expect(rule!.spec).toEqual({
      groups: [...rules('dsched-alerts.yml').groups, ...rules('dsched-slos.yml').groups],
    });
    const dashboard = byKind(rendered.ha, 'ConfigMap').find((c) => c.metadata.name.endsWith('-dashboard'))!;
    expect(dashboard.metadata.labels!.grafana_dashboard).toBe('1');
    expect(JSON.parse(dashboard.data!['dsched.json']!)).toEqual(
      JSON.parse(readFileSync(`${REPO_ROOT}deploy/grafana/dashboards/dsched.json`, 'utf8')),
    );
  });

  it('carries the same alert rules and dashboard files as deploy/ (cp them into files/ after a change)', () => {
    const same = (chartFile: string, source: string) =>
      expect(readFileSync(`${REPO_ROOT}${CHART}/files/${chartFile}`, 'utf8'), chartFile).toBe(
        readFileSync(`${REPO_ROOT}${source}`, 'utf8'),
      );
    same('dsched-alerts.yml', 'deploy/prometheus/rules/dsched-alerts.yml');
    same('dsched-slos.yml', 'deploy/prometheus/rules/dsched-slos.yml');
    same('dsched-dashboard.json', 'deploy/grafana/dashboards/dsched.json');
  });

  it('values.schema.json rejects bad values, naming them', () => {
    const bad = (args: string[]) => run('helm', ['template', 'dsched', CHART, ...args]);
    const noCredentials = bad(['--set', 'secret.create=true']);
    expect(noCredentials.status).not.toBe(0);
    expect(noCredentials.stderr).toMatch(/secret\/databaseUrl/);
    expect(noCredentials.stderr).toMatch(/secret\/adminToken/);
    expect(noCredentials.stderr).toMatch(/secret\/secretsKey/);
    const typo = bad(['--set', 'executor.replicaz=3']);
    expect(typo.stderr).toMatch(/replicaz/);
    const wrongType = bad(['--set', 'config.shutdownGraceMs=soon']);
    expect(wrongType.stderr).toMatch(/shutdownGraceMs/);
    expect(bad(['--set', 'podAntiAffinity=always']).stderr).toMatch(/podAntiAffinity/);
    expect(bad(['--set', 'config.trustProxy=everyone']).stderr).toMatch(/trustProxy/);
  });

  it('tells the APIs which proxies to believe only when config.trustProxy is set', () => {
    const config = (ms: Manifest[]) =>
      byKind(ms, 'ConfigMap').find((c) => c.metadata.name.endsWith('-config'))!;
    expect(config(rendered.default).data!.TRUST_PROXY).toBeUndefined();
    const set = render('default', ['--set-string', 'config.trustProxy=10.0.0.0/8']);
    expect(config(set).data!.TRUST_PROXY).toBe('10.0.0.0/8');
  });

  it('passes the console settings and the signal URLs’ origin on only when set', () => {
    const config = (ms: Manifest[]) =>
      byKind(ms, 'ConfigMap').find((c) => c.metadata.name.endsWith('-config'))!;
    expect(config(rendered.default).data!.CONSOLE_TASK_API_URL).toBeUndefined();
    const set = render('default', [
      '--set-string',
      'config.consoleTaskApiUrl=https://tasks.example.test',
      '--set-string',
      'config.taskApiCorsOrigins=https://console.example.test',
      '--set-string',
      'config.taskApiPublicUrl=https://dsched.example.test',
    ]);
    expect(config(set).data!.CONSOLE_TASK_API_URL).toBe('https://tasks.example.test');
    expect(config(set).data!.TASK_API_CORS_ORIGINS).toBe('https://console.example.test');
    expect(config(rendered.default).data!.TASK_API_PUBLIC_URL).toBeUndefined();
    expect(config(set).data!.TASK_API_PUBLIC_URL).toBe('https://dsched.example.test');
  });
});

describe('helm chart NOTES.txt', () => {
  // helm template leaves NOTES.txt out and install --dry-run needs a cluster, so a copy of the
  // chart renders it through tpl into a ConfigMap that helm template prints.
  const dir = mkdtempSync(join(tmpdir(), 'dsched-chart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(`${REPO_ROOT}${CHART}`, dir, { recursive: true });
  cpSync(`${dir}/templates/NOTES.txt`, `${dir}/files/notes.txt`);
  writeFileSync(
    `${dir}/templates/notes-rendered.yaml`,
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: notes }\ndata:\n  notes: |\n' +
      '{{ tpl (.Files.Get "files/notes.txt") . | indent 4 }}\n',
  );
  const notes = (args: string[] = []) =>
    parseManifests(
      runOk('helm', [
        'template',
        'dsched',
        dir,
        '-n',
        'ops',
        '--show-only',
        'templates/notes-rendered.yaml',
        ...args,
      ]),
    )[0]!.data!.notes!;

  it('tells the operator how to create the first tenant with the admin token', () => {
    const text = notes();
    expect(text).toContain('POST http://127.0.0.1:8080/v1/admin/tenants');
    expect(text).toContain('kubectl -n ops port-forward service/dsched-task-api 8080:8080');
    expect(text).toContain("secret dsched-credentials -o jsonpath='{.data.DSCHED_ADMIN_TOKEN}'");
    expect(text).toContain('create secret generic dsched-credentials');
  });

  it('names the chart-made Secret when the chart creates it', () => {
    const text = notes(['-f', `${REPO_ROOT}${CHART}/ci/minimal-values.yaml`]);
    expect(text).toContain("secret dsched-credentials -o jsonpath='{.data.DSCHED_ADMIN_TOKEN}'");
    expect(text).not.toContain('create secret generic');
  });
});
