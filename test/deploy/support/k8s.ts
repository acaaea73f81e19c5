import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PrometheusRule,
  ServiceMonitor,
} from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { parseAllDocuments } from 'yaml';
import { run } from './tools.ts';

// Kubernetes manifests rendered by helm or kustomize: parsed, validated against the Kubernetes
// JSON schemas (strict: an unknown field fails), and read for the properties the deploy promises.

/** The oldest Kubernetes the chart supports (Chart.yaml kubeVersion) and the newest schemas known. */
export const KUBERNETES_VERSIONS = ['1.27.0', '1.37.0'];

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are read field by field in the tests
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

// Kinds of the Prometheus Operator, which the Kubernetes schemas do not carry: validated with the
// models generated from the operator's API types (types, enums, required fields).
const CUSTOM_KINDS: Record<string, (m: Manifest) => void> = {
  'monitoring.coreos.com/v1/ServiceMonitor': (m) => new ServiceMonitor(m as never).validate(),
  'monitoring.coreos.com/v1/PrometheusRule': (m) => new PrometheusRule(m as never).validate(),
};

/**
 * Validates every manifest: built-in kinds with kubernetes-validate --strict against each of
 * KUBERNETES_VERSIONS, the operator's kinds with their models. Returns the problems found
 * (empty when all pass); a kind neither knows is a problem too.
 */
export function validateManifests(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const builtIn: Manifest[] = [];
  for (const m of manifests) {
    const custom = CUSTOM_KINDS[`${m.apiVersion}/${m.kind}`];
    if (!custom) {
      builtIn.push(m);
      continue;
    }
    try {
      custom(m);
    } catch (err) {
      problems.push(`${m.kind}/${m.metadata.name}: ${(err as Error).message}`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'dsched-k8s-'));
  try {
    const file = join(dir, 'manifests.json');
    // One JSON document a line is YAML too: kubernetes-validate reads it as a multi-document stream.
    writeFileSync(file, builtIn.map((m) => `---\n${JSON.stringify(m)}`).join('\n'));
    const versions = KUBERNETES_VERSIONS.flatMap((v) => ['-k', v]);
    const r = run('kubernetes-validate', ['--strict', ...versions, file]);
    const lines = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /^(ERROR|WARN)/.test(l));
    problems.push(...lines);
    const passed = `${r.stdout}\n${r.stderr}`
      .split('\n')
      .filter((l) => l.startsWith('INFO') && l.includes('passed'));
    if (
      r.status === 0 &&
      lines.length === 0 &&
      passed.length !== builtIn.length * KUBERNETES_VERSIONS.length
    ) {
      problems.push(
        `kubernetes-validate passed ${passed.length} of ${builtIn.length * KUBERNETES_VERSIONS.length}`,
      );
    }
    if (r.status !== 0 && lines.length === 0)
      problems.push(`kubernetes-validate exited ${r.status}: ${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

export const byKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind);

// biome-ignore lint/suspicious/noExplicitAny: a pod template, read field by field
export type PodSpec = any;

export function podSpec(m: Manifest): PodSpec {
  return m.spec.template.spec;
}

/** What every dsched Deployment promises: probes, hardening, resources, graceful termination. */
export function deploymentProblems(d: Manifest, shutdownGraceMs: number): string[] {
  const problems: string[] = [];
  const name = d.metadata.name;
  const pod = podSpec(d);
  const [c] = pod.containers;
  const port = c.ports?.[0]?.name;
  if (c.livenessProbe?.httpGet?.path !== '/healthz' || c.livenessProbe.httpGet.port !== port)
    problems.push(`${name}: liveness probe is not /healthz on ${port}`);
  if (c.readinessProbe?.httpGet?.path !== '/readyz' || c.readinessProbe.httpGet.port !== port)
    problems.push(`${name}: readiness probe is not /readyz on ${port}`);
  if (pod.securityContext?.runAsNonRoot !== true || !(pod.securityContext?.runAsUser > 0))
    problems.push(`${name}: pod may run as root`);
  if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${name}: root fs writable`);
  if (c.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${name}: privilege escalation`);
  if (!c.securityContext?.capabilities?.drop?.includes('ALL')) problems.push(`${name}: capabilities kept`);
  if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory || !c.resources?.limits?.memory)
    problems.push(`${name}: resources incomplete`);
  if (pod.automountServiceAccountToken !== false) problems.push(`${name}: service account token mounted`);
  const preStop = Number(c.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
  const needed = Math.ceil(shutdownGraceMs / 1000) + 5 + preStop;
  if (!(pod.terminationGracePeriodSeconds >= needed))
    problems.push(
      `${name}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} < ${needed} ` +
        `(SHUTDOWN_GRACE_MS ${shutdownGraceMs} + 5 s reserve + ${preStop} s preStop)`,
    );
  return problems;
}

const SERVICES = ['archiver', 'executor', 'job-api', 'reconciler', 'scheduler', 'task-api'];

/**
 * The six services as every rendering must deploy them: one Deployment each (with the
 * properties of deploymentProblems) and a PodDisruptionBudget selecting exactly its pods.
 */
export function servicesProblems(manifests: Manifest[], shutdownGraceMs: number): string[] {
  const deployments = byKind(manifests, 'Deployment');
  const services = deployments.map((d) => String(podSpec(d).containers[0].args[0])).sort();
  const problems = services.join() === SERVICES.join() ? [] : [`services deployed: ${services.join(', ')}`];
  for (const d of deployments) {
    problems.push(...deploymentProblems(d, shutdownGraceMs));
    const pdb = byKind(manifests, 'PodDisruptionBudget').find((p) => p.metadata.name === d.metadata.name);
    if (JSON.stringify(pdb?.spec.selector.matchLabels) !== JSON.stringify(d.spec.selector.matchLabels))
      problems.push(`${d.metadata.name}: no PodDisruptionBudget selecting its pods`);
  }
  return problems;
}
