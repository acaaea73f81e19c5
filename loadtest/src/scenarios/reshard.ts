import type { Run } from '../harness/run.ts';
import { percentile } from '../harness/series.ts';
import { equalShards, ReshardDriver } from '../harness/vitess-reshard.ts';
import { sleep } from '../harness/wait.ts';
import type { SinkRecords } from '../sink/protocol.ts';
import { registerCron } from './common.ts';
import type { Scenario } from './types.ts';

// The `dsched` keyspace split from 2 shards to 4 under a steady load, with Vitess's Reshard
// workflow on the local cluster (docs/sharding.md "Resharding", docs/vitess.md): the cluster is
// reset to 2 shards, the run's services start on it, a tablet per target shard is added, and cron
// tasks firing every minute (`--rate` occurrences a second, spread over the minute) run while, from
// `--at` seconds after the first is due, the workflow copies, VDiff compares, SwitchTraffic moves the reads and
// then the writes (the cut-over: vtgate buffers what reaches the shards meanwhile, and a worker
// whose shard map is stale has a batch refused or split, refreshes its map and goes on), and
// Complete ends it. The window ends `--tail` seconds after the cut-over (at least `--minutes` after
// the registration), so the load runs across the whole workflow however long it takes. Judged: none lost, no double effect (the standard checks), VDiff found no
// difference, the cut-over happened inside the window; reported: the cut-over's time (SwitchTraffic
// of the primaries, start to end), the longest gap in effects around it and in the rest of the
// window, and the lateness of the occurrences due in each phase (before, copy and VDiff, cut-over,
// after).
//
// The cluster is left at 4 shards with the old tablets idle: `scripts/vitess cluster reset` (the
// next reshard run does it itself) before another scenario wants 2.

/** Lateness per occurrence, from the sink: first call's arrival minus the due time, by due time. */
function latenessByDue(records: SinkRecords): { due: number; late: number }[] {
  const first = new Map<string, { due: number; at: number }>();
  for (let i = 0; i < records.key.length; i++) {
    const k = `${records.taskId[i]} ${records.scheduledFor[i]}`;
    const at = records.arrival[i]!;
    const seen = first.get(k);
    if (!seen) first.set(k, { due: Date.parse(records.scheduledFor[i]!), at });
    else if (at < seen.at) seen.at = at;
  }
  return [...first.values()].map((x) => ({ due: x.due, late: x.at - x.due }));
}

/** The longest time between two effects in [from, to], and where it started. */
function longestGap(effects: number[], from: number, to: number): { ms: number; at: number } {
  let prev = from;
  let best = { ms: 0, at: from };
  for (const t of effects) {
    if (t < from) continue;
    if (t > to) break;
    if (t - prev > best.ms) best = { ms: t - prev, at: prev };
    prev = t;
  }
  if (to - prev > best.ms) best = { ms: to - prev, at: prev };
  return best;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: Math.round(percentile(s, 50)),
    p99: Math.round(percentile(s, 99)),
    max: Math.round(percentile(s, 100)),
  };
};

export const reshard: Scenario = {
  name: 'reshard',
  summary:
    'on the local Vitess cluster (DSCHED_MYSQL_TOPOLOGY=vitess): the dsched keyspace split 2 → 4 shards with Reshard (copy, VDiff, SwitchTraffic, Complete) in the middle of a steady stream of cron occurrences; none lost, no double effect, VDiff clean; the cut-over time, the longest gap in effects and the lateness during the cut-over against the rest',
  knobs: { rate: 20, minutes: 2, at: 10, tail: 40, from: 2, to: 4 },
  async run(run: Run) {
    if (run.opts.topology !== 'vitess')
      throw new Error(
        'reshard runs on the local Vitess cluster: DSCHED_MYSQL_TOPOLOGY=vitess pnpm loadtest reshard',
      );
    const rate = run.knob('rate', 20);
    const minutes = run.knob('minutes', 2);
    const at = run.knob('at', 10);
    const tail = run.knob('tail', 40);
    const from = run.knob('from', 2);
    const to = run.knob('to', 4);
    // A fresh cluster of `from` shards (a reshard leaves it split): run.start brings it up again.
    process.env.DSCHED_VITESS_SHARDS = String(from);
    const driver = new ReshardDriver(
      { keyspace: 'dsched', workflow: `split${to}`, sources: equalShards(from), targets: equalShards(to) },
      process.env,
      (msg) => run.log(`reshard: ${msg}`),
    );
    await driver.script(['reset']);
    await run.start({ tenants: 10, profiles: { fast: {} } });
    const m: Record<string, number> = {};
    let t0 = Date.now();
    await driver.addTargetTablets();
    // The schema at once: until a new shard's tablet has the tables, vtgate's schema tracking
    // refuses a multi-table DML of the keyspace (the archiver's delete: VT09015).
    await driver.copySchema();
    m.target_tablets_s = Math.round((Date.now() - t0) / 100) / 10;
    run.mark(
      `${to} target tablets up with the schema in ${m.target_tablets_s} s: ${driver.plan.targets.join(', ')}`,
    );

    const w = await registerCron(run, Math.round(rate * 60), minutes, { criticalShare: 0.01 });
    const wait = w.origin + at * 1000 - Date.now();
    if (wait > 0) await sleep(wait);

    let vdiff: Awaited<ReturnType<ReshardDriver['vdiff']>> | undefined;
    let cut: { startedAt: number; endedAt: number } | undefined;
    let running = false;
    let completed = false;
    let failure = '';
    const phase: Record<string, number> = {};
    try {
      t0 = Date.now();
      phase.create = t0;
      await driver.create();
      run.mark(`Reshard ${from} → ${to} created`);
      running = await driver.waitRunning(180_000);
      m.copy_s = Math.round((Date.now() - t0) / 100) / 10;
      run.mark(
        running ? `copied; the streams replicate (${m.copy_s} s)` : 'the copy did not finish in 180 s',
      );
      if (running) {
        t0 = Date.now();
        vdiff = await driver.vdiff(300_000);
        m.vdiff_s = Math.round((Date.now() - t0) / 100) / 10;
        m.vdiff_rows = vdiff.rowsCompared;
        run.mark(
          `VDiff ${vdiff.state} in ${m.vdiff_s} s: ${vdiff.rowsCompared} rows compared, ${vdiff.hasMismatch ? `MISMATCH in ${vdiff.mismatched.join(', ')}` : 'no difference'}`,
        );
        await driver.switchReads();
        run.mark('reads switched (no replica or rdonly tablet: nothing moved)');
        cut = await driver.switchWrites();
        m.cutover_ms = cut.endedAt - cut.startedAt;
        phase.cut = cut.startedAt;
        phase.after = cut.endedAt;
        run.mark(
          `SwitchTraffic (primaries) took ${m.cutover_ms} ms: writes now on ${driver.plan.targets.join(', ')}`,
        );
        t0 = Date.now();
        await driver.complete();
        completed = true;
        m.complete_ms = Date.now() - t0;
        run.mark(`Complete in ${m.complete_ms} ms`);
      }
    } catch (err) {
      failure = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 400) : String(err);
      run.mark(`the reshard failed: ${failure}`);
    }

    // The load goes on `tail` seconds past the cut-over, whenever it came.
    if (cut) w.end = Math.max(w.end, cut.endedAt + tail * 1000);
    await run.drain(w.end, 300_000);
    const result = await run.finish(w.origin, w.end, () => '');

    const records = await run.sink.records();
    const effects: number[] = [];
    for (let i = 0; i < records.key.length; i++)
      if (records.effect[i] === 1) effects.push(records.arrival[i]!);
    effects.sort((a, b) => a - b);
    const late = latenessByDue(records).filter((x) => x.due >= w.origin && x.due <= w.end);
    // The cut-over window: SwitchTraffic's start to 10 s after its end (the services' maps are
    // refreshed and their refused batches retried in that time).
    const cutFrom = cut?.startedAt ?? Number.POSITIVE_INFINITY;
    const cutTo = (cut?.endedAt ?? Number.POSITIVE_INFINITY) + 10_000;
    const groups = {
      before: late.filter((x) => x.due < (phase.create ?? cutFrom)),
      copy_vdiff: late.filter((x) => x.due >= (phase.create ?? cutFrom) && x.due < cutFrom),
      cutover: late.filter((x) => x.due >= cutFrom && x.due <= cutTo),
      after: late.filter((x) => x.due > cutTo),
    };
    for (const [name, xs] of Object.entries(groups)) {
      const s = stats(xs.map((x) => x.late));
      m[`${name}_due`] = s.n;
      if (s.n > 0) {
        m[`${name}_p50_ms`] = s.p50;
        m[`${name}_p99_ms`] = s.p99;
        m[`${name}_max_ms`] = s.max;
      }
    }
    const rest = stats([...groups.before, ...groups.copy_vdiff, ...groups.after].map((x) => x.late));
    m.rest_p99_ms = rest.p99;
    const windowGap = longestGap(effects, w.origin + 2000, w.end);
    m.longest_effect_gap_ms = Math.round(windowGap.ms);
    m.longest_effect_gap_at_s = Math.round((windowGap.at - w.origin) / 100) / 10;
    if (cut) {
      const g = longestGap(effects, cut.startedAt - 1000, cutTo);
      m.cutover_effect_gap_ms = Math.round(g.ms);
    }
    Object.assign(result.metrics, m);
    result.notes.push(
      `cut-over window: occurrences due from SwitchTraffic's start (${cut ? ((cut.startedAt - w.origin) / 1000).toFixed(1) : '?'} s) to 10 s after its end; the rest: every other occurrence of the window`,
      `vtgate's buffer during the cut-over: scripts/lib/vitess-cluster.sh (--enable-buffer --buffer-window 30s --buffer-max-failover-duration 60s --buffer-size 10000)`,
    );
    result.headline = `${from} → ${to} shards under ${rate}/s: cut-over ${m.cutover_ms ?? '?'} ms, longest gap in effects ${m.cutover_effect_gap_ms ?? '?'} ms around it (${m.longest_effect_gap_ms} ms in the window); lateness p99 ${m.cutover_p99_ms ?? '?'} ms due in the cut-over against ${m.rest_p99_ms} ms the rest; copy ${m.copy_s ?? '?'} s, VDiff ${m.vdiff_s ?? '?'} s (${m.vdiff_rows ?? '?'} rows); lost ${result.metrics.lost}, duplicates ${result.metrics.duplicates}`;
    result.checks.push(
      {
        name: 'the keyspace was resharded in the middle of the load',
        ok: completed && cut !== undefined && cut.startedAt > w.origin && cut.endedAt < w.end,
        detail: failure
          ? `failed: ${failure}`
          : cut
            ? `SwitchTraffic from ${((cut.startedAt - w.origin) / 1000).toFixed(1)} s to ${((cut.endedAt - w.origin) / 1000).toFixed(1)} s of a ${((w.end - w.origin) / 1000).toFixed(0)} s window; Complete ${completed ? 'done' : 'not done'}`
            : `the streams ${running ? 'ran' : 'never ran'}; no cut-over`,
      },
      {
        name: 'VDiff found the targets equal to the sources',
        ok: vdiff !== undefined && vdiff.state === 'completed' && !vdiff.hasMismatch,
        detail: vdiff
          ? `${vdiff.state}, ${vdiff.rowsCompared} rows${vdiff.hasMismatch ? `, mismatch in ${vdiff.mismatched.join(', ') || '?'}` : ''}`
          : 'not run',
      },
    );
    const shards = await run.view.pool.query('SHOW VITESS_SHARDS').then(
      ([rows]) => (rows as Record<string, string>[]).map((r) => String(Object.values(r)[0])),
      () => [] as string[],
    );
    const served = shards.filter((s) => s.startsWith('dsched/')).map((s) => s.slice(7));
    result.checks.push({
      name: `vtgate serves the ${to} new shards`,
      ok: served.join(',') === driver.plan.targets.join(','),
      detail: served.join(', '),
    });
    return result;
  },
};
