import { readFileSync } from 'node:fs';
import { startTcpProxy, type TcpProxy } from '@dsched/testkit/tcp-proxy';
import { scrapeCounter } from '../harness/observe.ts';
import type { Run } from '../harness/run.ts';
import { CASSANDRA_CONTACT, SHARED_MYSQL } from '../harness/stack.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
import { spread } from '../harness/workload.ts';
import { dueAfterRegistering, finishWindow, lossHeadline, registerSpread } from './common.ts';
import { count, describe, findArchivedJob, isHistoryUnavailable, newProbe } from './history-probes.ts';
import { registerBurst } from './peak.ts';
import type { Scenario } from './types.ts';

// Stores going away as the services see them. The shared MariaDB (3306) and Cassandra (9042) are
// never stopped: a TCP relay of the harness (testkit's tcp-proxy) stands between the services and
// the store and is cut — every relayed connection reset, every new one reset on accept — which is
// the store down (or a partition) for whoever connects through it. The MariaDB restart runs the
// harness's own mariadbd, as `mariadb-restart` does.

async function relayTo(run: Run, hostPort: string): Promise<TcpProxy> {
  const [host, port] = hostPort.split(':');
  const proxy = await startTcpProxy({ host: host ?? '127.0.0.1', port: Number(port) });
  run.cleanups.push(() => proxy.close());
  return proxy;
}

export const cassandraDown: Scenario = {
  name: 'cassandra-down',
  summary:
    'Cassandra unreachable 60 s under steady load (a cut TCP relay in front of the shared node): deliveries go on, history 503, the archiver catches up',
  knobs: { tasks: 6000, seconds: 150, down: 60 },
  async run(run) {
    const tasks = run.knob('tasks', 6000);
    const seconds = run.knob('seconds', 150);
    const downS = run.knob('down', 60);
    const proxy = await relayTo(run, CASSANDRA_CONTACT);
    run.notes.push(
      `Cassandra "down" is a TCP relay (127.0.0.1:${proxy.port}) between every service and the shared node, cut for ${downS} s: connections reset, new ones reset on accept; the shared Cassandra itself is never touched. The harness reads history directly.`,
    );
    await run.start({
      tenants: 5,
      profiles: { work: { delayMs: [20, 100] } },
      env: { CASSANDRA_CONTACT_POINTS: `127.0.0.1:${proxy.port}` },
    });
    const w = await registerSpread(run, tasks, seconds, { profile: 'work', criticalShare: 0.01 });
    const m: Record<string, number> = {};
    const checks: { name: string; ok: boolean; detail: string }[] = [];
    if (!(await run.waitEffects(Math.floor(tasks * 0.2), (seconds + 60) * 1000))) {
      run.notes.push('20% was never delivered: Cassandra was not cut');
      return finishWindow(run, w, lossHeadline);
    }
    // An archived job (in history, gone from MySQL) to ask job-api for while history is away.
    const archived = await findArchivedJob(run);
    const backlogBefore = await run.view.archiveBacklog();
    const idsAtCut = await run.view.liveJobIds();
    const effectsAtCut = (await run.sink.stats()).effects;
    run.mark(`cassandra: relay cut (archive backlog ${backlogBefore})`);
    const cutAt = Date.now();
    proxy.cut();
    const live = newProbe();
    const one = newProbe();
    const list = newProbe();
    await sleep(3000);
    while (Date.now() - cutAt < downS * 1000) {
      const [pending] = await run.view.pendingJobs(1);
      const tenant = run.tenants.find((t) => t.id === pending?.tenantId);
      if (pending && tenant) {
        const res = await run.jobApi.call('GET', `/v1/jobs/${pending.id}`, {
          token: tenant.apiKey,
          tries: 1,
        });
        count(live, res.status, res.status === 200);
      }
      if (archived) {
        const res = await run.jobApi.call('GET', `/v1/jobs/${archived.id}`, {
          token: archived.key,
          tries: 1,
        });
        count(one, res.status, isHistoryUnavailable(res.status, res.body));
      }
      const res = await run.jobApi.call('GET', '/v1/jobs?limit=5', {
        token: run.tenants[0]?.apiKey ?? '',
        tries: 1,
      });
      count(list, res.status, isHistoryUnavailable(res.status, res.body));
      await sleep(2000);
    }
    const idsAtRestore = await run.view.liveJobIds();
    const backlogAtRestore = await run.view.archiveBacklog();
    m.effects_during_outage = (await run.sink.stats()).effects - effectsAtCut;
    proxy.restore();
    const restoredAt = Date.now();
    run.mark(`cassandra: relay restored (archive backlog ${backlogAtRestore})`);
    // Jobs that left MySQL while history was unreachable: each must be in history (read directly).
    const gone = [...idsAtCut].filter((id) => !idsAtRestore.has(id));
    let goneNotInHistory = 0;
    for (const id of gone) if (!(await run.view.inHistory(id))) goneNotInHistory++;
    m.deleted_during_outage = gone.length;
    m.deleted_not_in_history = goneNotInHistory;
    const historyBack = await pollUntil(
      async () => {
        const res = await run.jobApi.call('GET', '/v1/jobs?limit=5', {
          token: run.tenants[0]?.apiKey ?? '',
          tries: 1,
        });
        return res.status === 200;
      },
      { timeoutMs: 180_000, intervalMs: 500 },
    );
    m.history_back_s = historyBack ? Number(((Date.now() - restoredAt) / 1000).toFixed(1)) : -1;
    const caughtUp = await pollUntil(
      async () => (await run.view.archiveBacklog()) <= Math.max(2 * backlogBefore, 200),
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    m.archive_catch_up_s = caughtUp ? Number(((Date.now() - restoredAt) / 1000).toFixed(1)) : -1;
    run.mark(`archiver caught up: backlog ${await run.view.archiveBacklog()}`);
    m.archive_backlog_before = backlogBefore;
    m.archive_backlog_at_restore = backlogAtRestore;
    m.live_reads_ok = live.ok;
    m.live_reads_wrong = live.wrong;
    m.history_reads_503 = one.ok + list.ok;
    m.history_reads_wrong = one.wrong + list.wrong;
    checks.push(
      {
        name: 'deliveries went on while Cassandra was unreachable',
        ok: m.effects_during_outage > 0,
        detail: `${m.effects_during_outage} effects during the ${downS} s`,
      },
      {
        name: 'job-api answered live jobs meanwhile (200)',
        ok: live.ok > 0 && live.wrong === 0,
        detail: describe(live),
      },
      {
        name: 'job-api answered history with a 503 naming it (an archived job, the list)',
        ok: list.ok > 0 && list.wrong === 0 && one.wrong === 0 && (archived === undefined || one.ok > 0),
        detail: `archived job: ${archived ? describe(one) : 'none found to ask for'}; list: ${describe(list)}`,
      },
      {
        name: 'the archiver waited: nothing left MySQL that is not in history',
        ok: goneNotInHistory === 0,
        detail: `${gone.length} jobs left MySQL during the outage (a batch already written), ${goneNotInHistory} of them not in history; backlog ${backlogBefore} → ${backlogAtRestore}`,
      },
      {
        name: 'the archiver caught up after Cassandra came back',
        ok: caughtUp,
        detail: caughtUp ? `backlog back down within ${m.archive_catch_up_s} s` : 'not within 240 s',
      },
      {
        name: 'history answered again after Cassandra came back',
        ok: historyBack,
        detail: historyBack ? `200 after ${m.history_back_s} s` : 'not within 180 s',
      },
    );
    const result = await finishWindow(
      run,
      w,
      (x) =>
        `${x.effects_during_outage} effects during the outage, history back in ${x.history_back_s} s, archive caught up in ${x.archive_catch_up_s} s, p99 ${x.p99_ms} ms`,
    );
    Object.assign(result.metrics, m);
    result.headline = `${m.effects_during_outage} effects during the outage, history back in ${m.history_back_s} s, archive caught up in ${m.archive_catch_up_s} s, p99 ${result.metrics.p99_ms} ms`;
    result.checks.push(...checks, {
      name: 'after the outage, each job once in history and gone from MySQL',
      ok: result.metrics.jobs_in_both_stores === 0,
      detail: `${result.metrics.jobs_in_both_stores} jobs in both stores at the end`,
    });
    return result;
  },
};

/** The outcomes an executor gave up writing, from its log ("could not record outcomes", `dropped`). */
function droppedOutcomes(logFile: string): number {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return Number.NaN;
  }
  let n = 0;
  for (const match of text.matchAll(/"dropped":(\d+)/g)) n += Number(match[1]);
  return n;
}

export const executorPartition: Scenario = {
  name: 'executor-partition',
  summary:
    'one executor cut off from MySQL (a cut TCP relay; the process lives on) with calls in flight: its leases expire, others take its jobs, its late outcomes are fenced off',
  knobs: { tasks: 4000, slow: 300, seconds: 60, cut: 20 },
  async run(run) {
    const tasks = run.knob('tasks', 4000);
    const slowN = run.knob('slow', 300);
    const seconds = run.knob('seconds', 60);
    const cutS = run.knob('cut', 20);
    const proxy = await relayTo(run, new URL(SHARED_MYSQL).host);
    const lease = 15;
    run.notes.push(
      `executor-0 reaches MySQL through a TCP relay (127.0.0.1:${proxy.port}), cut for ${cutS} s (connections reset, new ones reset on accept): a partition between it and MySQL only; it still reaches its targets. EXECUTOR_LEASE_S ${lease}.`,
    );
    await run.start({
      tenants: 5,
      profiles: { work: { delayMs: [50, 300] }, slow: { delayMs: [6000, 18_000] } },
      env: { EXECUTOR_LEASE_S: String(lease) },
      envFor: (name, index): Record<string, string> => {
        if (name !== 'executor' || index !== 0) return {};
        const url = new URL(run.stores.databaseUrl);
        url.port = String(proxy.port);
        return { DATABASE_URL: url.toString() };
      },
    });
    const origin = await dueAfterRegistering(run, tasks + slowN);
    const tenants = run.tenants.length;
    // Slow calls (6-18 s) through the first half: executor-0 holds some whenever it is cut, and
    // they end while it is cut off, so their outcomes wait to be written.
    await run.register([
      ...spread(tasks, origin, seconds * 1000, { tenants, profile: 'work', criticalShare: 0.01 }),
      ...spread(slowN, origin, (seconds * 1000) / 2, { tenants, profile: 'slow' }).map((p) => ({
        ...p,
        timeoutMs: 60_000,
      })),
    ]);
    const w = { origin, end: origin + seconds * 1000 };
    const victim = run.fleet.of('executor')[0]!;
    const owner = victim.id;
    const m: Record<string, number> = {};
    const staleBefore = (await scrapeCounter(victim, 'dsched_stale_results_total')) ?? 0;
    // Cut once the slow calls are well under way and it holds some.
    await sleep(Math.max(0, origin + 8000 - Date.now()));
    const holding = await pollUntil(async () => (await run.view.claimsOf(owner)).length >= 5, {
      timeoutMs: Math.max(10_000, w.end - Date.now()),
      intervalMs: 200,
    });
    let held: { id: string; attempt: number }[] = [];
    if (holding) {
      proxy.cut();
      // Read after the cut: from here on the victim can change nothing in MySQL.
      held = await run.view.claimsOf(owner);
      run.mark(`executor-0 cut off from MySQL holding ${held.length} claims`);
      await sleep(cutS * 1000);
      proxy.restore();
      run.mark('executor-0 reconnected');
    } else run.notes.push('executor-0 never held 5 claims: no partition');
    const result = await finishWindow(run, w, lossHeadline);
    const staleAfter = await scrapeCounter(victim, 'dsched_stale_results_total');
    const jobs = await run.view.allJobs();
    let takenOver = 0;
    let appliedLate = 0;
    for (const h of held) {
      const j = jobs.get(h.id);
      if (j && j.attempt > h.attempt) takenOver++;
      else appliedLate++;
    }
    m.claims_held_at_cut = held.length;
    m.claims_taken_over = takenOver;
    m.late_outcomes_applied = appliedLate;
    m.late_outcomes_fenced = (staleAfter ?? Number.NaN) - staleBefore;
    // Outcomes it could not write within a lease are dropped (OutcomeBatcher), and logged.
    m.late_outcomes_dropped = droppedOutcomes(`${run.scratch}logs/executor-0.log`);
    const exits = run.fleet.events.filter((e) => e.what.startsWith(`${owner} exited`)).length;
    m.partitioned_executor_exits = exits;
    Object.assign(result.metrics, m);
    result.headline = `${held.length} claims held at the cut, ${takenOver} taken over, ${m.late_outcomes_fenced} late outcomes fenced, ${appliedLate} applied; p99 ${result.metrics.p99_ms} ms`;
    if (holding)
      result.checks.push(
        {
          name: 'every claim the cut-off executor held was taken over by another',
          ok: held.length > 0 && takenOver === held.length,
          detail: `${takenOver} of ${held.length} jobs ended at a later attempt than the one it held`,
        },
        {
          name: 'its late outcomes were fenced off (counted), none applied',
          ok: m.late_outcomes_fenced > 0 && appliedLate === 0,
          detail: `dsched_stale_results_total of ${owner} rose by ${m.late_outcomes_fenced}; ${appliedLate} held jobs ended at the attempt it held`,
        },
        {
          name: 'every outcome of a held claim accounted: fenced, or dropped after a lease',
          ok: m.late_outcomes_fenced + m.late_outcomes_dropped === held.length,
          detail: `${m.late_outcomes_fenced} fenced + ${m.late_outcomes_dropped} dropped ("could not record outcomes", after ${lease} s) of ${held.length} held`,
        },
        {
          name: 'the cut-off executor lived on',
          ok: exits === 0 && victim.running(),
          detail: `${exits} exits; running at the end: ${victim.running()}`,
        },
      );
    return result;
  },
};

export const mariadbRestartPeak: Scenario = {
  name: 'mariadb-restart-peak',
  summary:
    "MariaDB killed -9 in the middle of the 30,000-job peak and restarted (the harness's own mariadbd): the peak completes, none lost",
  knobs: { tasks: 30_000, down: 10, at: 0.3 },
  async run(run) {
    const tasks = run.knob('tasks', 30_000);
    await run.start({ tenants: 10, ownMariadb: true, profiles: { fast: {} } });
    const due = await registerBurst(run, tasks, { criticalShare: 0.01 });
    const db = run.ownMariadb!;
    const share = run.knob('at', 0.3);
    let effects = Number.NaN;
    if (await run.waitEffects(Math.floor(tasks * share), 300_000)) {
      effects = (await run.sink.stats()).effects;
      run.mark(`mariadb: kill -9 with ${effects} of ${tasks} delivered`);
      await db.down('kill');
      await sleep(run.knob('down', 10) * 1000);
      await db.up();
      run.mark('mariadb: started again');
    } else run.notes.push(`${share * 100}% was never delivered: MariaDB was not restarted`);
    await run.drain(due, 420_000);
    const result = await run.finish(
      due,
      due,
      (x) =>
        `drain ${x.drain_s} s across the restart, critical p99 ${x.critical_p99_ms} ms, other p99 ${x.other_p99_ms} ms, ${x.redeliveries} redeliveries absorbed, ${x.restarts} restarts`,
    );
    result.metrics.delivered_at_restart = effects;
    result.checks.push({
      name: 'MariaDB went down in the middle of the peak',
      ok: effects > 0 && effects < tasks,
      detail: `killed with ${effects} of ${tasks} effects applied`,
    });
    return result;
  },
};
