import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RssSampler } from '../harness/observe.ts';
import { percentile } from '../harness/series.ts';
import { registerTasks, spread, type TaskPlan } from '../harness/workload.ts';
import { HOSTILE_KINDS, HostileServer } from '../hostile/server.ts';
import { dueAfterRegistering, finishWindow } from './common.ts';
import type { Scenario } from './types.ts';

// Targets that fight back, beside ordinary ones. Tenant 0's tasks call the hostile server
// (src/hostile/server.ts): a slow loris, headers without end, a body without end, a redirect to
// itself, and a host name whose first resolution is loopback and every later one a private
// address (DNS rebinding through the resolver the executor's SSRF guard uses: rebind-preload.mjs,
// loaded into the executors of this run only, which also refuses any socket off loopback). Tenants
// 1-4 run the same steady stream twice: alone first (`clean`), then beside the hostile calls
// (`beside`). Each hostile call must end within its timeout and the caps; the executors' memory
// must stay flat; the others' p99 must not move.

const REBIND_HOST = 'rebind.dsched.test';
const PRELOAD = fileURLToPath(new URL('../hostile/rebind-preload.mjs', import.meta.url));
const HOSTILE_TIMEOUT_MS = 5000;
/** What a call may take beyond its timeout (scheduling on a shared 2-core box, the close). */
const SLACK_MS = 2000;

export const hostileTargets: Scenario = {
  name: 'hostile-targets',
  summary:
    'slow-loris, endless headers, endless body, a redirect loop and DNS rebinding beside a clean stream: calls end within timeout and caps, memory flat, others not slowed',
  knobs: { tasks: 2000, hostile: 40, seconds: 40 },
  async run(run) {
    const perPhase = run.knob('tasks', 2000);
    const perKind = run.knob('hostile', 40);
    const seconds = run.knob('seconds', 40);
    const hostile = await HostileServer.start();
    run.cleanups.push(() => hostile.close());
    const rebindLog = `${run.scratch}logs/rebind.log`;
    await run.start({
      tenants: 5,
      profiles: { clean: {}, beside: {} },
      envFor: (name): Record<string, string> =>
        name === 'executor'
          ? {
              NODE_OPTIONS: `--import=${PRELOAD}`,
              LT_REBIND_HOST: REBIND_HOST,
              LT_REBIND_TO: '10.255.255.1',
              LT_REBIND_LOG: rebindLog,
            }
          : {},
    });
    const rss = new RssSampler(() => run.fleet.of('executor'));
    run.cleanups.push(async () => rss.stop());
    const kinds = [...HOSTILE_KINDS.filter((k) => k !== 'ok'), 'rebind'] as const;
    const origin = await dueAfterRegistering(run, 2 * perPhase + kinds.length * perKind);
    const phase = seconds * 1000;
    const others = (profile: string, from: number) =>
      spread(perPhase, from, phase, { tenants: 4, profile }).map((p) => ({ ...p, tenant: p.tenant + 1 }));
    await run.register([...others('clean', origin), ...others('beside', origin + phase)]);
    const retry = { maxAttempts: 2, initialBackoffMs: 500, maxBackoffMs: 1000 };
    const hostileTasks = new Map<string, string>();
    for (const kind of kinds) {
      const plans: TaskPlan[] = spread(perKind, origin + phase, phase, { tenants: 1 }).map((p) => ({
        ...p,
        profile: kind === 'rebind' ? 'ok' : kind,
        timeoutMs: HOSTILE_TIMEOUT_MS,
        retry,
      }));
      const reg = await registerTasks(run.taskApi, run.tenants, plans, {
        sinkBase: kind === 'rebind' ? `http://${REBIND_HOST}:${hostile.port}` : hostile.url,
        concurrency: run.opts.concurrency,
        namePrefix: `hostile-${kind}`,
      });
      for (const t of reg.tasks) {
        hostileTasks.set(t.id, kind);
        run.outsideSink.add(t.id);
      }
    }
    run.mark(
      `registered ${hostileTasks.size} hostile tasks (${perKind} of each kind, timeout ${HOSTILE_TIMEOUT_MS} ms)`,
    );
    const result = await finishWindow(run, { origin, end: origin + 2 * phase }, () => '');
    rss.stop();
    const m = result.metrics;
    // The hostile jobs: each ended (succeeded, or dead with a reason), none left running.
    const jobs = await run.view.allJobs();
    const ends = new Map<string, Map<string, number>>();
    let hostileUnaccounted = 0;
    for (const j of jobs.values()) {
      const kind = j.taskId ? hostileTasks.get(j.taskId) : undefined;
      if (!kind) continue;
      const ok = j.state === 'succeeded' || (j.state === 'dead' && !!j.lastError);
      if (!ok) hostileUnaccounted++;
      const byState = ends.get(kind) ?? new Map<string, number>();
      const label = j.state === 'dead' ? `dead (${(j.lastError ?? '').slice(0, 48)})` : j.state;
      byState.set(label, (byState.get(label) ?? 0) + 1);
      ends.set(kind, byState);
    }
    const hostileJobs = [...ends.values()].reduce(
      (a, b) => a + [...b.values()].reduce((x, y) => x + y, 0),
      0,
    );
    m.hostile_jobs = hostileJobs;
    m.hostile_unaccounted = hostileUnaccounted;
    // Each call, as the target saw it: from the connection to its close.
    const now = Date.now();
    const worstMs: Record<string, number> = {};
    let overTime = 0;
    let boundHit = 0;
    let bodyBytesMax = 0;
    const redirectCalls = new Map<string, number>();
    for (const c of hostile.connections) {
      const ms = (c.closedAt ?? now) - c.openedAt;
      worstMs[c.kind] = Math.max(worstMs[c.kind] ?? 0, ms);
      if (c.kind !== 'ok' && ms > HOSTILE_TIMEOUT_MS + SLACK_MS) overTime++;
      if (c.boundHit) boundHit++;
      if (c.kind === 'body') bodyBytesMax = Math.max(bodyBytesMax, c.bytesOut);
      if (c.kind === 'redirect') {
        const k = `${c.key}:${c.attempt}`;
        redirectCalls.set(k, (redirectCalls.get(k) ?? 0) + 1);
      }
    }
    for (const [kind, ms] of Object.entries(worstMs)) m[`${kind}_call_max_ms`] = ms;
    m.hostile_calls = hostile.connections.length;
    m.calls_over_timeout = overTime;
    m.body_bytes_sent_max = bodyBytesMax;
    m.redirects_followed = [...redirectCalls.values()].reduce((a, n) => a + n - 1, 0);
    // DNS rebinding: only each executor's first resolution reached the target; none left loopback.
    const rebindLines = (() => {
      try {
        return readFileSync(rebindLog, 'utf8').split('\n');
      } catch {
        return [];
      }
    })();
    m.rebind_resolutions = rebindLines.filter((l) => l.includes(` resolve ${REBIND_HOST} `)).length;
    m.rebind_resolved_private = rebindLines.filter((l) => l.includes(` resolve ${REBIND_HOST} 10.`)).length;
    m.non_loopback_sockets = rebindLines.filter((l) => l.includes(' blocked connect ')).length;
    m.rebind_calls_reached = hostile.connections.filter((c) => c.kind === 'ok').length;
    const executors = run.fleet.of('executor').length;
    // Memory: each executor's peak RSS in the clean phase against its peak with the hostile calls.
    let growth = 0;
    const rssNote: string[] = [];
    for (const e of run.fleet.of('executor')) {
      const name = `${e.name}-${e.index}`;
      const clean = rss.series(name, origin, origin + phase);
      const beside = rss.series(name, origin + phase, now);
      const cleanMax = Math.max(...clean);
      const besideMax = Math.max(...beside);
      const end = beside.at(-1) ?? Number.NaN;
      growth = Math.max(growth, besideMax - cleanMax);
      rssNote.push(`${name} ${cleanMax.toFixed(0)} → ${besideMax.toFixed(0)} MiB (end ${end.toFixed(0)})`);
    }
    m.executor_rss_growth_mib = Number(growth.toFixed(1));
    const clean = m.clean_p99_ms ?? Number.NaN;
    const beside = m.beside_p99_ms ?? Number.NaN;
    const allowed = clean + Math.max(1000, clean);
    result.headline = `others' p99 ${beside} ms beside hostile targets vs ${clean} ms clean; ${m.hostile_calls} hostile calls, slowest ${Math.max(...Object.values(worstMs))} ms; executor RSS +${m.executor_rss_growth_mib} MiB`;
    result.notes.push(
      `hostile jobs by kind: ${[...ends]
        .map(([k, s]) => `${k}: ${[...s].map(([st, n]) => `${n} ${st}`).join(', ')}`)
        .join('; ')}`,
      `executor RSS, clean phase peak → hostile phase peak: ${rssNote.join('; ')}`,
      `p50 of the others: clean ${m.clean_p50_ms} ms, beside ${m.beside_p50_ms} ms; p99 of hostile-call durations: ${percentile(
        hostile.connections.map((c) => (c.closedAt ?? now) - c.openedAt).sort((a, b) => a - b),
        99,
      )} ms`,
    );
    result.checks.push(
      {
        name: 'every hostile job ended (succeeded, or dead with a reason)',
        ok: hostileUnaccounted === 0 && hostileJobs === hostileTasks.size,
        detail: `${hostileJobs} jobs of ${hostileTasks.size} hostile tasks, ${hostileUnaccounted} not ended`,
      },
      {
        name: `every hostile call ended within its timeout (${HOSTILE_TIMEOUT_MS} ms + ${SLACK_MS} ms)`,
        ok: overTime === 0 && boundHit === 0 && m.hostile_calls > 0,
        detail: `${overTime} over, ${boundHit} ended by the target's own bound; slowest by kind: ${Object.entries(
          worstMs,
        )
          .map(([k, ms]) => `${k} ${ms} ms`)
          .join(', ')}`,
      },
      {
        name: 'a redirect is an outcome, never followed',
        ok: m.redirects_followed === 0,
        detail: `${m.redirects_followed} calls beyond one per attempt`,
      },
      {
        name: 'DNS rebinding: the private address refused, no socket off loopback',
        ok:
          m.non_loopback_sockets === 0 &&
          m.rebind_resolved_private > 0 &&
          m.rebind_calls_reached <= executors,
        detail: `${m.rebind_resolutions} resolutions (${m.rebind_resolved_private} to 10.255.255.1), ${m.rebind_calls_reached} calls reached the target (at most one per executor: its first resolution), ${m.non_loopback_sockets} sockets off loopback attempted`,
      },
      {
        name: 'the executors’ memory stayed flat',
        ok: growth <= 64,
        detail: `largest growth of peak RSS from the clean phase to the hostile one: ${m.executor_rss_growth_mib} MiB (at most 64)`,
      },
      {
        name: 'other tenants not slowed by the hostile calls',
        ok: beside <= allowed,
        detail: `p99 ${beside} ms beside the hostile targets, ${clean} ms in the clean run before (at most ${allowed})`,
      },
    );
    return result;
  },
};
