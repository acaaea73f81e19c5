import { leadingScheduler } from '../harness/faults.ts';
import { SERVICES } from '../harness/fleet.ts';
import { RssSampler } from '../harness/observe.ts';
import type { Run } from '../harness/run.ts';
import { percentile } from '../harness/series.ts';
import { sleep } from '../harness/wait.ts';
import { everyMinute, spread } from '../harness/workload.ts';
import type { Chart } from '../report/plot.ts';
import { dueAfterRegistering, finishWindow } from './common.ts';
import type { Scenario } from './types.ts';

// The chaos soak: steady cron and one-off load for `minutes`, `jobs` occurrences in all (two
// thirds cron every minute, one third once tasks spread over the run), while every 20-60 s a
// random service of a random kind is killed -9 (the leading scheduler when the kind is scheduler)
// and started again a few seconds later, and once, half-way, the harness's own MariaDB is killed
// -9 and restarted. Same accounting as every fault (0 lost, 0 duplicate effects, nothing
// unaccounted), plus schedule lag p99 per minute and every service's RSS over the run.

/** mulberry32: the chaos is random, and the same for the same --seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICE_COLORS: Record<string, string> = {
  'task-api': '#2471a3',
  'job-api': '#17a589',
  scheduler: '#c0392b',
  executor: '#e67e22',
  reconciler: '#8e44ad',
  archiver: '#7f8c8d',
};

async function chaos(run: Run, untilMs: number, random: () => number, mariadbAtMs: number): Promise<number> {
  let kills = 0;
  let mariadbDone = false;
  for (;;) {
    const pause = (20 + random() * 40) * 1000;
    if (Date.now() + pause > untilMs) break;
    await sleep(pause);
    if (!mariadbDone && Date.now() >= mariadbAtMs && run.ownMariadb) {
      mariadbDone = true;
      run.mark('chaos: mariadb kill -9 (down 10 s)');
      await run.ownMariadb.down('kill');
      await sleep(10_000);
      await run.ownMariadb.up();
      run.mark('chaos: mariadb started again');
      continue;
    }
    const kind = SERVICES[Math.floor(random() * SERVICES.length)] ?? 'executor';
    const up = run.fleet.of(kind).filter((i) => i.running() && !i.held);
    const victim =
      kind === 'scheduler'
        ? await leadingScheduler(run.fleet, run.view)
        : up[Math.floor(random() * up.length)];
    if (!victim || up.length < 2) continue; // never the last one standing of its kind
    kills++;
    run.mark(`chaos: kill -9 ${victim.id}${kind === 'scheduler' ? ' (the leader)' : ''}`);
    await run.fleet.kill(victim, { restartAfterMs: 3000 + Math.floor(random() * 7000) });
  }
  return kills;
}

export const soak: Scenario = {
  name: 'soak',
  summary:
    'the chaos soak: cron and one-off load for 30 min, 300,000 jobs, a random service kill -9 every 20-60 s (leaders included), one MariaDB restart',
  knobs: { jobs: 300_000, minutes: 30, seed: 1 },
  async run(run) {
    const jobs = run.knob('jobs', 300_000);
    const minutes = run.knob('minutes', 30);
    const random = seeded(run.knob('seed', 1));
    await run.start({ tenants: 10, ownMariadb: true, profiles: { cron: {}, once: {} } });
    const rss = new RssSampler(() => run.fleet.instances, 2000);
    run.cleanups.push(async () => rss.stop());
    const cronTasks = Math.max(1, Math.round((jobs * 2) / 3 / minutes));
    const onceTasks = Math.max(0, jobs - cronTasks * minutes);
    const origin = await dueAfterRegistering(run, cronTasks + onceTasks);
    const span = minutes * 60_000;
    const tenants = run.tenants.length;
    const reg = await run.register([
      ...spread(onceTasks, origin, span, { tenants, profile: 'once', criticalShare: 0.01 }),
      ...everyMinute(cronTasks, { tenants, profile: 'cron' }),
    ]);
    let first = origin;
    for (const t of reg.tasks) if (Number.isFinite(t.nextFireAt)) first = Math.min(first, t.nextFireAt);
    const w = { origin: first, end: origin + span };
    run.mark(`soak: ${cronTasks} cron tasks every minute + ${onceTasks} once tasks over ${minutes} min`);
    const kills = await chaos(run, w.end, random, origin + span / 2);
    const result = await finishWindow(run, w, () => '', 600_000);
    rss.stop();
    const m = result.metrics;
    m.chaos_kills = kills;
    m.cron_tasks = cronTasks;
    m.once_tasks = onceTasks;
    // Schedule lag p99 per minute of scheduled time: first arrival at the sink − scheduled time.
    const records = await run.sink.records();
    const firstArrival = new Map<string, { scheduled: number; arrival: number }>();
    records.key.forEach((key, i) => {
      const scheduled = Date.parse(records.scheduledFor[i] ?? '');
      const arrival = records.arrival[i] ?? Number.NaN;
      const seen = firstArrival.get(key);
      if (!seen || arrival < seen.arrival) firstArrival.set(key, { scheduled, arrival });
    });
    const byMinute = new Map<number, number[]>();
    for (const { scheduled, arrival } of firstArrival.values()) {
      const minute = Math.floor((scheduled - w.origin) / 60_000);
      const list = byMinute.get(minute) ?? [];
      list.push(Math.max(0, arrival - scheduled));
      byMinute.set(minute, list);
    }
    const perMinute = [...byMinute]
      .sort(([a], [b]) => a - b)
      .map(([minute, lags]) => {
        lags.sort((a, b) => a - b);
        return { minute, calls: lags.length, p99: percentile(lags, 99) };
      });
    m.lag_p99_worst_minute_ms = Math.round(Math.max(...perMinute.map((x) => x.p99)));
    m.lag_p99_median_minute_ms = Math.round(
      percentile(
        perMinute.map((x) => x.p99).sort((a, b) => a - b),
        50,
      ),
    );
    result.notes.push(
      `schedule lag p99 per minute (minute of scheduled time: calls, p99 ms): ${perMinute
        .map((x) => `${x.minute}: ${x.calls}, ${Math.round(x.p99)}`)
        .join('; ')}`,
    );
    // RSS per service: the largest of its replicas at each sample.
    const toS = (t: number) => (t - w.origin) / 1000;
    const rssLines = SERVICES.map((service) => ({
      name: service,
      color: SERVICE_COLORS[service] ?? '#000000',
      points: rss.points
        .map((p): [number, number] => {
          const values = Object.entries(p.byInstance)
            .filter(([name]) => name.startsWith(`${service}-`))
            .map(([, v]) => v);
          return [toS(p.t), values.length > 0 ? Math.max(...values) : Number.NaN];
        })
        .filter(([, v]) => Number.isFinite(v)),
    }));
    const leaks: string[] = [];
    let leaking = 0;
    for (const line of rssLines) {
      const values = line.points.map(([, v]) => v);
      const third = Math.max(1, Math.floor(values.length / 3));
      const early = percentile(
        [...values.slice(0, third)].sort((a, b) => a - b),
        50,
      );
      const late = percentile(
        [...values.slice(-third)].sort((a, b) => a - b),
        50,
      );
      m[`rss_${line.name.replace('-', '_')}_first_third_mib`] = Math.round(early);
      m[`rss_${line.name.replace('-', '_')}_last_third_mib`] = Math.round(late);
      if (late > early * 1.5 + 32) leaking++;
      leaks.push(`${line.name} ${Math.round(early)} → ${Math.round(late)} MiB`);
    }
    const markers = result.timeline
      .filter((e) => e.what.startsWith('chaos:'))
      .map((e) => ({ x: e.t, label: e.what.replace('chaos: ', '').slice(0, 30) }));
    result.charts = {
      'lag-per-minute': {
        title: 'soak: schedule lag p99 per minute (first call − scheduled time)',
        xLabel: 'minute of scheduled time',
        yLabel: 'lag p99, ms',
        lines: [{ name: 'p99', color: '#c0392b', points: perMinute.map((x) => [x.minute, x.p99]) }],
      },
      rss: {
        title: 'soak: resident memory per service (largest replica), chaos kills marked',
        xLabel: 'seconds since the first due time',
        yLabel: 'RSS, MiB',
        lines: rssLines,
        markers: markers.slice(0, 40),
      } satisfies Chart,
    };
    result.headline = `${kills} kills -9 and one MariaDB restart over ${minutes} min; lag p99 per minute: median ${Math.round(m.lag_p99_median_minute_ms)} ms, worst ${Math.round(m.lag_p99_worst_minute_ms)} ms`;
    result.checks.push(
      {
        name: 'chaos happened: kills of random services and one MariaDB restart',
        ok: kills > 0 && result.timeline.some((e) => e.what === 'chaos: mariadb started again'),
        detail: `${kills} kills -9; ${result.timeline
          .filter((e) => e.what.startsWith('chaos: kill'))
          .map((e) => e.what.replace('chaos: kill -9 ', ''))
          .join(', ')}`,
      },
      {
        name: 'no service leaks memory (last third of the run at most 1.5× the first + 32 MiB)',
        ok: leaking === 0,
        detail: `median RSS, first third → last third: ${leaks.join('; ')}`,
      },
    );
    return result;
  },
};
