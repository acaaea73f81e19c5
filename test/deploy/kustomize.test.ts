import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { afterAll, describe, expect, it } from 'vitest';
import {
  byKind,
  type Manifest,
  parseManifests,
  podSpec,
  servicesProblems,
  validateManifests,
} from './support/k8s.ts';
import { runOk } from './support/tools.ts';

// The plain manifests of k8s/: the base and the production overlay, built with kustomize as
// `kubectl apply -k` would, validated against the Kubernetes schemas, and read for what they
// promise. The overlay needs credentials.env (kept out of git): a copy gets the example's.

const dir = mkdtempSync(join(tmpdir(), 'dsched-k8s-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(`${REPO_ROOT}k8s`, dir, { recursive: true });
cpSync(`${dir}/overlays/production/credentials.env.example`, `${dir}/overlays/production/credentials.env`);

const build = (path: string) => parseManifests(runOk('kustomize', ['build', path]));
const built: Record<string, Manifest[]> = {
  base: build(`${dir}/base`),
  production: build(`${dir}/overlays/production`),
};
const configOf = (ms: Manifest[]) =>
  byKind(ms, 'ConfigMap').find((c) => c.metadata.name.startsWith('dsched-config'))!;

describe.each(Object.keys(built))('k8s/%s', (name) => {
  const ms = built[name]!;

  it('validates against the Kubernetes schemas (strict, 1.27 and 1.37)', () => {
    expect(ms.length).toBeGreaterThan(20);
    expect(validateManifests(ms)).toEqual([]);
  });

  it('has the six services, each probed, hardened, budgeted and outliving its shutdown grace', () => {
    const grace = Number(configOf(ms).data!.SHUTDOWN_GRACE_MS);
    expect(grace).toBeGreaterThan(0);
    expect(servicesProblems(ms, grace)).toEqual([]);
    for (const d of byKind(ms, 'Deployment')) {
      // the generated ConfigMap's hashed name reaches every reference
      expect(podSpec(d).containers[0].envFrom[0].configMapRef.name).toBe(configOf(ms).metadata.name);
    }
  });

  it('has the executor HPA, the migration Job, the Secret and network policies', () => {
    const [hpa] = byKind(ms, 'HorizontalPodAutoscaler');
    expect(hpa!.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'dsched-executor' });
    expect(
      byKind(ms, 'Deployment').find((d) => d.metadata.name === 'dsched-executor')!.spec.replicas,
    ).toBeUndefined();
    const [job] = byKind(ms, 'Job');
    expect(podSpec(job!).containers[0].args).toEqual(['migrate']);
    expect(podSpec(job!).containers[0].envFrom[1].secretRef.name).toBe('dsched-credentials');
    expect(byKind(ms, 'Secret').map((s) => s.metadata.name)).toEqual(['dsched-credentials']);
    expect(byKind(ms, 'NetworkPolicy')).toHaveLength(7);
  });
});

describe('k8s/overlays/production', () => {
  const ms = built.production!;

  it('puts everything in the dsched namespace, which enforces the restricted Pod Security Standard', () => {
    const [ns] = byKind(ms, 'Namespace');
    expect(ns!.metadata.labels!['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const namespaced = ms.filter((m) => m.kind !== 'Namespace');
    expect(namespaced.every((m) => (m.metadata as { namespace?: string }).namespace === 'dsched')).toBe(true);
  });

  it('replicates every service, autoscales executors from 3 and takes credentials from credentials.env', () => {
    for (const d of byKind(ms, 'Deployment').filter((d) => d.metadata.name !== 'dsched-executor')) {
      expect(d.spec.replicas, d.metadata.name).toBeGreaterThanOrEqual(2);
    }
    expect(byKind(ms, 'HorizontalPodAutoscaler')[0]!.spec.minReplicas).toBe(3);
    const secret = byKind(ms, 'Secret')[0]!;
    expect(Buffer.from(secret.data!.DATABASE_URL!, 'base64').toString()).toContain('mysql.db.svc');
    expect(secret.stringData).toBeUndefined();
    expect(Object.keys(secret.data!)).toContain('DSCHED_SECRETS_KEY');
    expect(podSpec(byKind(ms, 'Deployment')[0]!).containers[0].image).toBe(
      'registry.example.com/dsched:0.1.0',
    );
  });
});
