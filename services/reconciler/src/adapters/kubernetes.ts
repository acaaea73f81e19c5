import { existsSync, readFileSync } from 'node:fs';
import type { Logger } from '@dsched/runtime';
import { ApiException, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { GoneExecutors } from '../ports.ts';

// The Kubernetes accelerator's adapter. An executor's instance id (claimed_by) is its pod name:
// the chart sets INSTANCE_ID from metadata.name. A pod the API answers 404 for, or one that has
// terminated (phase Succeeded or Failed), holds no claim any more. Anything else, including an
// error from the API, counts as alive, so a flaky API server can only delay a release, never
// cause a wrong one.

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
// A pod name is a DNS-1123 subdomain; an owner that is not one (an executor outside the
// cluster, `executor-host-1234`) may still be, so the check below is only a cheap first filter.
const POD_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const LOOKUPS_IN_FLIGHT = 8;

export interface KubernetesSettings {
  mode: 'auto' | 'on' | 'off';
  kubeconfig?: string | undefined;
  namespace?: string | undefined;
  env: Record<string, string | undefined>;
}

/** The API client and namespace, or null when the accelerator is off (no cluster, or `off`). */
export function kubernetesClient(s: KubernetesSettings): { api: CoreV1Api; namespace: string } | null {
  if (s.mode === 'off') return null;
  const kc = new KubeConfig();
  if (s.kubeconfig) {
    if (!existsSync(s.kubeconfig)) throw new Error(`RECONCILER_KUBECONFIG: no file at ${s.kubeconfig}`);
    kc.loadFromFile(s.kubeconfig);
  } else if (s.env.KUBERNETES_SERVICE_HOST) {
    kc.loadFromCluster();
  } else if (s.mode === 'on') {
    throw new Error('RECONCILER_KUBERNETES: on, but not in a cluster and no RECONCILER_KUBECONFIG');
  } else {
    return null;
  }
  const namespace =
    s.namespace ??
    (existsSync(SERVICE_ACCOUNT_NAMESPACE)
      ? readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim()
      : 'default');
  return { api: kc.makeApiClient(CoreV1Api), namespace };
}

export function kubernetesGoneExecutors(api: CoreV1Api, namespace: string, logger: Logger): GoneExecutors {
  async function isGone(owner: string): Promise<boolean> {
    if (!POD_NAME.test(owner)) return false;
    try {
      const pod = await api.readNamespacedPod({ name: owner, namespace });
      const phase = pod.status?.phase;
      return phase === 'Succeeded' || phase === 'Failed';
    } catch (err) {
      if (err instanceof ApiException && err.code === 404) return true;
      logger.warn({ err, owner }, 'kubernetes: cannot tell whether the executor pod exists');
      return false;
    }
  }
  return async (owners) => {
    const gone: string[] = [];
    for (let i = 0; i < owners.length; i += LOOKUPS_IN_FLIGHT) {
      const window = owners.slice(i, i + LOOKUPS_IN_FLIGHT);
      const answers = await Promise.all(window.map(isGone));
      window.forEach((o, j) => {
        if (answers[j]) gone.push(o);
      });
    }
    return gone;
  };
}
