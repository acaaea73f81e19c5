import type { Run } from '../harness/run.ts';
import { idsOf } from '../harness/stores-view.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
import { burst, spread } from '../harness/workload.ts';
import { dueAfterRegistering, finishWindow } from './common.ts';
import { count, describe, findArchivedJob, newProbe, type Probe } from './history-probes.ts';
import type { Scenario } from './types.ts';

// History on a Cassandra cluster that loses a node. The run starts three nodes of its own
// (127.0.0.2–4 on free ports, replication factor 3, commit log synced before a write is
// acknowledged; the shared node is never touched) and the services at their default levels
// (LOCAL_QUORUM). One node is killed -9 under the steady load, and the peak falls due while it is
// down: job-api keeps answering history, the archiver keeps moving jobs (two of three acknowledge),
// nothing is lost. The node is started again on its data: the survivors' hints bring it what it
// missed (their hint files, on their disks and in system_views.pending_hints, go to none), and at
// the end, with the two others stopped, it alone holds every job history holds. Then the archivers
// run at ALL and the node is killed again: no write can be acknowledged at that level, so not one
// job may leave MySQL until the node is back.

/** The node killed: 127.0.0.4, not the seed. */
const VICTIM = 2;
const SURVIVORS = [0, 1];

async function probeHistory(
  run: Run,
  archived: { id: string; key: string } | undefined,
  probes: { live: Probe; one: Probe; list: Probe },
): Promise<void> {
  const [pending] = await run.view.pendingJobs(1);
  const tenant = run.tenants.find((t) => t.id === pending?.tenantId);
  if (pending && tenant) {
    const res = await run.jobApi.call('GET', `/v1/jobs/${pending.id}`, { token: tenant.apiKey, tries: 1 });
    count(probes.live, res.status, res.status === 200);
  }
  if (archived) {
    const res = await run.jobApi.call('GET', `/v1/jobs/${archived.id}`, { token: archived.key, tries: 1 });
    count(probes.one, res.status, res.status === 200);
  }
  const res = await run.jobApi.call('GET', '/v1/jobs?limit=5', {
    token: run.tenants[0]?.apiKey ?? '',
    tries: 1,
  });
  count(probes.list, res.status, res.status === 200);
}

/** Hint files the survivors hold (on their disks) and report for the victim (pending_hints). */
async function survivorsHints(run: Run): Promise<{ files: number; bytes: number; reported: number }> {
  const cluster = run.cassandraCluster!;
  const total = { files: 0, bytes: 0, reported: 0 };
  for (const i of SURVIVORS) {
    const h = await cluster.hintsOn(i);
    total.files += h.files;
    total.bytes += h.bytes;
    total.reported += h.forTargets.get(cluster.address(VICTIM)) ?? 0;
  }
  return total;
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((id) => !b.has(id));

export const cassandraNodeDown: Scenario = {
  name: 'cassandra-node-down',
  summary:
    "one node of a 3-node Cassandra cluster of the run's own killed -9 under steady load and the peak, then restarted: history reads and archiving go on at LOCAL_QUORUM, nothing lost, the node catches up by hints; at ALL the archiver stops deleting while a node is down",
  knobs: { tasks: 4000, seconds: 150, peak: 5000, down: 60, strict: 30, hints: 1 },
  async run(run) {
    const tasks = run.knob('tasks', 4000);
    const seconds = run.knob('seconds', 150);
    const peakTasks = run.knob('peak', 5000);
    const downS = run.knob('down', 60);
    const strictS = run.knob('strict', 30);
    const hints = run.knob('hints', 1) !== 0;
    let strict = false;
    await run.start({
      tenants: 5,
      profiles: { work: { delayMs: [20, 100] }, fast: {} },
      ownCassandra: { nodes: 3, heap: '512M', hints },
      // Archivers started after `strict` is set (the second outage) write history at ALL.
      envFor: (name): Record<string, string> =>
        name === 'archiver' && strict ? { CASSANDRA_WRITE_CONSISTENCY: 'ALL' } : {},
    });
    const cluster = run.cassandraCluster!;
    const victim = cluster.address(VICTIM);
    // The services' client as the harness makes it: it must know all three nodes on the run's port
    // (the driver gives the nodes it discovers 9042 unless told), not only the one it reached first.
    const probe = cluster.client(run.stores.keyspace);
    await probe.connect();
    const known = [...probe.hosts.values()].map((h) => h.address).sort();
    await probe.shutdown();
    run.extraChecks.push({
      name: 'the client knows the three nodes on the run’s port',
      ok: known.join(',') === [...cluster.contactPoints].sort().join(','),
      detail: known.join(', '),
    });
    run.notes.push(
      `History on the run's own cluster ${cluster.contactPoints.join(', ')} (replication factor 3, commit log group-synced, hinted handoff ${hints ? 'on' : 'off'}); the services at LOCAL_QUORUM for reads and writes. ${victim} is killed -9 ${strictS > 0 ? 'twice: under LOCAL_QUORUM, then with the archivers at ALL' : 'once, under LOCAL_QUORUM'}.`,
    );
    // Steady work over `seconds`, and the peak due 30 s in, while the node is down.
    const origin = await dueAfterRegistering(run, tasks + peakTasks);
    const tenants = run.tenants.length;
    const reg = await run.register([
      ...spread(tasks, origin, seconds * 1000, { tenants, profile: 'work', criticalShare: 0.01 }),
      ...burst(peakTasks, origin + 30_000, { tenants, profile: 'fast', criticalShare: 0.01 }),
    ]);
    run.extraChecks.push({
      name: 'registration ended before the first due time',
      ok: reg.finishedAt < origin,
      detail: `${((origin - reg.finishedAt) / 1000).toFixed(1)} s to spare`,
    });
    let windowEnd = origin + seconds * 1000;
    const m: Record<string, number> = {};
    const checks: { name: string; ok: boolean; detail: string }[] = [];

    // --- The node down under LOCAL_QUORUM, the peak falling due meanwhile --------------------
    await sleep(Math.max(0, origin + 10_000 - Date.now()));
    const archived = await findArchivedJob(run);
    const historyBefore = await run.view.historyIds();
    await sleep(Math.max(0, origin + 15_000 - Date.now()));
    const effectsAtKill = (await run.sink.stats()).effects;
    run.mark(`cassandra: kill -9 ${victim} (${historyBefore.size} jobs in history)`);
    const killedAt = Date.now();
    await cluster.kill(VICTIM);
    await sleep(3000);
    // Read after the kill: whatever leaves MySQL from here on was written with the node down.
    const idsAtKill = await run.view.liveJobIds();
    const probes = { live: newProbe(), one: newProbe(), list: newProbe() };
    while (Date.now() - killedAt < downS * 1000) {
      await probeHistory(run, archived, probes);
      await sleep(2000);
    }
    const idsAtRestart = await run.view.liveJobIds();
    const historyAtRestart = await run.view.historyIds();
    m.effects_during_outage = (await run.sink.stats()).effects - effectsAtKill;
    const gone = minus(idsAtKill, idsAtRestart);
    m.deleted_during_outage = gone.length;
    m.deleted_not_in_history = gone.filter((id) => !historyAtRestart.has(id)).length;
    const writtenWhileDown = new Set(minus(historyAtRestart, historyBefore));
    m.history_written_while_down = writtenWhileDown.size;
    const hintsAtRestart = await survivorsHints(run);
    m.hint_files_at_restart = hintsAtRestart.files;
    m.hint_bytes_at_restart = hintsAtRestart.bytes;
    run.mark(
      `cassandra: restarting ${victim} (${writtenWhileDown.size} jobs written to history meanwhile; survivors hold ${hintsAtRestart.files} hint files, ${(hintsAtRestart.bytes / 1048576).toFixed(1)} MiB)`,
    );
    let restartedAt = Date.now();
    await cluster.startNode(VICTIM);
    m.node_restart_s = Number(((Date.now() - restartedAt) / 1000).toFixed(1));
    const answeredAt = Date.now();
    const delivered = await pollUntil(
      async () => {
        const h = await survivorsHints(run);
        return h.files === 0 && h.reported === 0;
      },
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
    m.hints_delivered_s = delivered ? Number(((Date.now() - answeredAt) / 1000).toFixed(1)) : -1;
    run.mark(
      delivered
        ? `cassandra: ${victim} answers after ${m.node_restart_s} s; the survivors' hints delivered ${m.hints_delivered_s} s later`
        : `cassandra: hints for ${victim} still pending after 300 s`,
    );
    m.history_reads_ok = probes.one.ok + probes.list.ok;
    m.history_reads_wrong = probes.one.wrong + probes.list.wrong;
    m.live_reads_ok = probes.live.ok;
    m.live_reads_wrong = probes.live.wrong;
    checks.push(
      {
        name: 'deliveries went on while the node was down (the peak fell due meanwhile)',
        ok: m.effects_during_outage > 0,
        detail: `${m.effects_during_outage} effects in the ${downS} s`,
      },
      {
        name: 'job-api answered history and live jobs meanwhile (200 each time)',
        ok:
          probes.list.ok > 0 &&
          probes.live.ok > 0 &&
          m.history_reads_wrong + m.live_reads_wrong === 0 &&
          (archived === undefined || probes.one.ok > 0),
        detail: `archived job: ${archived ? describe(probes.one) : 'none found to ask for'}; list: ${describe(probes.list)}; live job: ${describe(probes.live)}`,
      },
      {
        name: 'the archiver went on at LOCAL_QUORUM: jobs left MySQL while the node was down, each in history',
        ok: gone.length > 0 && m.deleted_not_in_history === 0,
        detail: `${gone.length} jobs left MySQL, ${m.deleted_not_in_history} of them not in history; ${writtenWhileDown.size} jobs written to history`,
      },
      {
        name: hints
          ? 'the survivors kept hints for the node and delivered them once it was back'
          : 'hinted handoff off (--hints 0): no hints expected',
        ok: hints ? hintsAtRestart.files > 0 && delivered : hintsAtRestart.files === 0,
        detail: `${hintsAtRestart.files} hint files (${hintsAtRestart.bytes} bytes) at the restart; ${delivered ? `none left ${m.hints_delivered_s} s after it answered` : 'still there after 300 s'}`,
      },
    );

    // --- The archivers at ALL, the node down again --------------------------------------------
    if (strictS > 0) {
      strict = true;
      const archivers = run.fleet.of('archiver');
      for (const a of archivers) await run.fleet.restart(a);
      const ready = await Promise.all(archivers.map((a) => run.fleet.waitReady(a, 120_000)));
      run.mark(
        `archivers restarted at CASSANDRA_WRITE_CONSISTENCY=ALL (${ready.filter(Boolean).length} ready)`,
      );
      // Work that finishes while the node is down: once tasks due over the outage.
      const strictTasks = Math.max(100, Math.round((tasks / seconds) * strictS));
      const rate = run.registration?.perSecond ?? 50;
      const strictOrigin = Math.ceil((Date.now() + ((strictTasks / rate) * 1.3 + 5) * 1000) / 1000) * 1000;
      await run.register(spread(strictTasks, strictOrigin, strictS * 1000, { tenants, profile: 'work' }));
      windowEnd = Math.max(windowEnd, strictOrigin + strictS * 1000);
      await sleep(Math.max(0, strictOrigin - 2000 - Date.now()));
      run.mark(`cassandra: kill -9 ${victim} again (archivers at ALL)`);
      const strictKilledAt = Date.now();
      await cluster.kill(VICTIM);
      // Writes in flight at the kill end within the write timeout (2 s); from here on none can be
      // acknowledged by all three.
      await sleep(5000);
      const strictIds = await run.view.liveJobIds();
      const backlogAtKill = await run.view.archiveBacklog();
      await sleep(Math.max(0, strictKilledAt + (strictS + 8) * 1000 - Date.now()));
      const strictGone = minus(strictIds, await run.view.liveJobIds());
      const backlogAtRestart = await run.view.archiveBacklog();
      m.strict_deleted_while_down = strictGone.length;
      m.strict_backlog_at_kill = backlogAtKill;
      m.strict_backlog_at_restart = backlogAtRestart;
      run.mark(`cassandra: restarting ${victim} (archive backlog ${backlogAtKill} → ${backlogAtRestart})`);
      restartedAt = Date.now();
      await cluster.startNode(VICTIM);
      const caughtUp = await pollUntil(async () => (await run.view.archiveBacklog()) <= 50, {
        timeoutMs: 240_000,
        intervalMs: 1000,
      });
      m.strict_catch_up_s = caughtUp ? Number(((Date.now() - restartedAt) / 1000).toFixed(1)) : -1;
      run.mark(`archiver at ALL: backlog ${await run.view.archiveBacklog()} after the restart`);
      checks.push(
        {
          name: 'at ALL with a node down, no job left MySQL while jobs waited to be archived',
          ok: strictGone.length === 0 && backlogAtRestart > backlogAtKill,
          detail: `${strictGone.length} jobs left MySQL from 5 s after the kill to the restart; archive backlog ${backlogAtKill} → ${backlogAtRestart}`,
        },
        {
          name: 'at ALL, the archiver caught up once the node was back',
          ok: caughtUp,
          detail: caughtUp
            ? `backlog ≤ 50 within ${m.strict_catch_up_s} s of the restart`
            : 'not within 240 s',
        },
      );
    }

    const result = await finishWindow(run, { origin, end: windowEnd }, () => '');

    // --- What the restarted node holds, read from it alone ------------------------------------
    const inHistory = await run.view.historyIds();
    for (const i of SURVIVORS) await cluster.kill(i);
    run.mark(
      `cassandra: ${SURVIVORS.map((i) => cluster.address(i)).join(' and ')} stopped; reading ${victim} alone at ONE`,
    );
    let alone: Set<string> | undefined;
    const aloneClient = cluster.nodeClient(VICTIM, run.stores.keyspace);
    try {
      // Until its failure detector has marked the others down, a read may still wait on them.
      await pollUntil(
        async () => {
          alone = await idsOf(aloneClient);
          return true;
        },
        { timeoutMs: 120_000, intervalMs: 2000 },
      );
    } finally {
      await aloneClient.shutdown().catch(() => undefined);
    }
    m.history_jobs = inHistory.size;
    m.missing_on_restarted_node = alone ? minus(inHistory, alone).length : -1;
    m.missing_written_while_down = alone ? minus(writtenWhileDown, alone).length : -1;
    result.checks.push(
      ...checks,
      {
        name: `the restarted node alone holds every job in history (read at ONE with the two others stopped)`,
        ok: m.missing_on_restarted_node === 0,
        detail: alone
          ? `${m.missing_on_restarted_node} of ${inHistory.size} missing, ${m.missing_written_while_down} of the ${writtenWhileDown.size} written while it was down`
          : 'could not read it alone within 120 s',
      },
      {
        name: 'after the run, each job once in history and gone from MySQL',
        ok: result.metrics.jobs_in_both_stores === 0,
        detail: `${result.metrics.jobs_in_both_stores} jobs in both stores at the end`,
      },
    );
    Object.assign(result.metrics, m);
    result.headline = `${m.effects_during_outage} effects and ${m.deleted_during_outage} jobs archived with a node down, history reads ${m.history_reads_ok} ok/${m.history_reads_wrong} not, node back in ${m.node_restart_s} s, hints delivered in ${m.hints_delivered_s} s, ${m.missing_on_restarted_node} missing on it; at ALL ${m.strict_deleted_while_down ?? '-'} deleted while down; p99 ${result.metrics.p99_ms} ms`;
    return result;
  },
};
