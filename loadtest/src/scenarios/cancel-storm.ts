import type { Tenant } from '../harness/api.ts';
import { mapConcurrent, sleep } from '../harness/wait.ts';
import { finishWindow, registerSpread } from './common.ts';
import type { Scenario } from './types.ts';

// A storm of cancels through job-api while the jobs are due: pending ones (cancelled by a
// conditional update) and some that turn running on the way (marked, aborted at the next
// heartbeat). A job whose cancel answered 'cancelled' must never be called afterwards; every job
// not cancelled must still be delivered.

interface CancelAnswer {
  id?: string;
  state?: string;
  error?: { code?: string; message?: string };
  message?: string;
}

export const cancelStorm: Scenario = {
  name: 'cancel-storm',
  summary: 'cancel 30% of the jobs through job-api while they come due (pending and running)',
  knobs: { tasks: 6000, seconds: 60, share: 30 },
  async run(run) {
    await run.start({ tenants: 5, profiles: { work: { delayMs: [50, 500] } } });
    const w = await registerSpread(run, run.knob('tasks', 6000), run.knob('seconds', 60), {
      profile: 'work',
    });
    const share = run.knob('share', 30) / 100;
    const byId = new Map<string, Tenant>(run.tenants.map((t) => [t.id, t]));
    const considered = new Set<string>();
    let sent = 0;
    let routeMissing = false;
    const statuses: Record<string, number> = {};
    run.mark('cancel storm starts');
    // Bounded: until the window's end, one sweep of at most 1,000 pending jobs every 300 ms.
    while (Date.now() < w.end && !routeMissing) {
      const pending = await run.view.pendingJobs(1000).catch(() => []);
      const fresh = pending.filter((j) => !considered.has(j.id));
      for (const j of fresh) considered.add(j.id);
      const pick = fresh.filter(() => Math.random() < share);
      await mapConcurrent(pick, 32, async (job) => {
        const tenant = byId.get(job.tenantId);
        if (!tenant) return;
        sent++;
        const res = await run.jobApi
          .call<CancelAnswer>('POST', `/v1/jobs/${job.id}/cancel`, { token: tenant.apiKey, tries: 2 })
          .catch(() => ({ status: 0, body: {} as CancelAnswer }));
        const label = `${res.status}${res.body?.state ? ` ${res.body.state}` : ''}`;
        statuses[label] = (statuses[label] ?? 0) + 1;
        // A 404 from the router (no such route) rather than from the job lookup: not built yet.
        if (res.status === 404 && /^no route/.test(res.body?.error?.message ?? '')) routeMissing = true;
        if (res.status === 200)
          run.cancelled.set(job.id, { at: Date.now(), confirmed: res.body.state === 'cancelled' });
      });
      await sleep(300);
    }
    run.mark(
      `cancel storm over: ${sent} cancels sent (${Object.entries(statuses)
        .map(([k, v]) => `${k}×${v}`)
        .join(', ')})`,
    );
    if (routeMissing) run.missing.push('job-api POST /v1/jobs/{id}/cancel (answered 404: no such route)');
    // A storm the API refuses tests nothing: it once passed with every cancel answered 400.
    const refused = Object.entries(statuses)
      .filter(([label]) => label.startsWith('400'))
      .reduce((n, [, count]) => n + count, 0);
    const confirmed = [...run.cancelled.values()].filter((c) => c.confirmed).length;
    run.extraChecks.push({
      name: 'the cancels were accepted (none answered 400) and some cancelled their job',
      ok: sent > 0 && refused === 0 && confirmed > 0,
      detail: `${sent} sent, ${refused} answered 400, ${confirmed} answered cancelled`,
    });
    const result = await finishWindow(
      run,
      w,
      (m) =>
        `${m.cancelled} cancelled, ${m.calls_after_cancel} called after their cancel, ${m.delivered} delivered`,
    );
    result.metrics.cancels_sent = sent;
    result.metrics.cancels_confirmed = confirmed;
    return result;
  },
};
