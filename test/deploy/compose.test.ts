import { readFileSync } from 'node:fs';
import { parseSecretsKeyring } from '@dsched/domain';
import { REPO_ROOT } from '@dsched/testkit/names';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_PORTS } from '../../deploy/docker/healthcheck.ts';
import { toolPath } from './support/tools.ts';

// docker-compose.yml against the Compose Specification schema (from compose-go, the library
// Docker Compose itself loads files with), and what the quick start promises. No Docker engine
// runs here: the file is validated, not started.

const read = (path: string) => readFileSync(`${REPO_ROOT}${path}`, 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: a compose file, read field by field
type Compose = any;
const compose: Compose = parse(read('docker-compose.yml'), { merge: true });
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(toolPath('compose-schema'), 'utf8')));
const problems = (doc: unknown) =>
  validate(doc)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);

const DSCHED = ['task-api', 'job-api', 'scheduler', 'executor', 'reconciler', 'archiver'];

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    expect(problems(compose)).toEqual([]);
  });

  it('the schema check rejects a misspelt key and a wrong type', () => {
    const broken = structuredClone(compose);
    broken.services.executor.restart_policy = 'always';
    broken.services.mysql.volumes = 'mysql-data:/var/lib/mysql';
    const found = problems(broken).join('\n');
    expect(found).toMatch(/restart_policy/);
    expect(found).toMatch(/\/services\/mysql\/volumes must be array/);
  });

  it('runs MySQL 9.7 (the verified release), Cassandra 5.0, the migration, the six services, a demo target, Prometheus and Grafana', () => {
    expect(compose.services.mysql.image).toBe('mysql:9.7');
    expect(compose.services.cassandra.image).toBe('cassandra:5.0');
    expect(compose.services.migrate.command).toEqual(['migrate']);
    expect(compose.services.migrate.depends_on).toMatchObject({
      mysql: { condition: 'service_healthy' },
      cassandra: { condition: 'service_healthy' },
    });
    expect(compose.services['demo-target'].command).toEqual(['demo-target']);
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['prometheus', 'grafana', ...DSCHED]),
    );
  });

  it('starts each service after the migration, read-only, with time to shut down gracefully', () => {
    for (const name of DSCHED) {
      const s = compose.services[name];
      expect(s.command, name).toEqual([name]);
      expect(s.depends_on.migrate.condition, name).toBe('service_completed_successfully');
      expect(s.read_only, name).toBe(true);
      expect(s.environment[SERVICE_PORTS[name]![0]], name).toBe(String(SERVICE_PORTS[name]![1]));
      const graceS = Number(s.environment.SHUTDOWN_GRACE_MS) / 1000;
      expect(Number.parseInt(s.stop_grace_period, 10), name).toBeGreaterThanOrEqual(graceS + 5);
    }
  });

  it('lets Prometheus scrape every service on its port, with the alert rules, and Grafana load the dashboard', () => {
    const prometheus = parse(read('deploy/prometheus/prometheus.yml'));
    const targets = prometheus.scrape_configs.flatMap((c: { static_configs: { targets: string[] }[] }) =>
      c.static_configs.flatMap((s) => s.targets),
    );
    expect(targets.sort()).toEqual(DSCHED.map((n) => `${n}:${SERVICE_PORTS[n]![1]}`).sort());
    expect(prometheus.rule_files).toEqual(['rules/*.yml']);
    expect(compose.services.prometheus.volumes).toContain('./deploy/prometheus:/etc/prometheus/dsched:ro');
    expect(compose.services.grafana.volumes).toContain(
      './deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro',
    );
    // the executor may call the demo target, which lives on the compose network
    const subnet = compose.networks.default.ipam.config[0].subnet;
    expect(compose.services.executor.environment.EXECUTOR_ALLOWED_TARGETS).toBe(subnet);
  });

  it("runs Jaeger with the tracing profile and sends the services' spans where OTEL_EXPORTER_OTLP_ENDPOINT says", () => {
    expect(compose.services.jaeger.profiles).toEqual(['tracing']);
    expect(compose.services.jaeger.image).toMatch(/^jaegertracing\/jaeger:2\./);
    for (const name of DSCHED) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's variable syntax
      expect(compose.services[name].environment.OTEL_EXPORTER_OTLP_ENDPOINT, name).toBe(
        '${OTEL_EXPORTER_OTLP_ENDPOINT:-}',
      );
    }
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's variable syntax
    expect(compose.services['job-api'].environment.CONSOLE_TRACE_URL).toBe('${CONSOLE_TRACE_URL:-}');
  });

  it('gives the services that seal and open signing secrets the same key, overridable', () => {
    const keys = ['task-api', 'executor'].map((n) => compose.services[n].environment.DSCHED_SECRETS_KEY);
    expect(keys[0]).toBe(keys[1]);
    const fallback = /^\$\{DSCHED_SECRETS_KEY:-(.+)\}$/.exec(keys[0])?.[1];
    expect(parseSecretsKeyring(fallback!).current.key).toHaveLength(32);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds on Node 24 slim and installs production dependencies from the lockfile', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
    expect(dockerfile).toMatch(/pnpm install --offline --prod --frozen-lockfile/);
  });

  it('runs as a non-root user with a health check and the service as argument', () => {
    expect(runtime).toMatch(/^USER 1000:1000$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n\s+CMD \["node", "deploy\/docker\/healthcheck.ts"\]/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["\/app\/deploy\/docker\/entrypoint.sh"\]$/m);
    expect(runtime).not.toMatch(/npm install|pnpm/);
  });

  it('builds the console in a stage of its own and ships only its files', () => {
    const stage = dockerfile.slice(dockerfile.indexOf(' AS console'), dockerfile.indexOf(' AS runtime'));
    expect(stage).toMatch(/pnpm console:build/);
    expect(runtime).toMatch(/^COPY --from=console \/app\/apps\/console\/dist \/app\/apps\/console\/dist$/m);
  });

  it('keeps tests, node_modules and the deploy tooling out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(
      expect.arrayContaining(['**/node_modules', '**/test', '.git', 'deploy/helm', 'k8s']),
    );
  });
});
