import { mkdirSync, writeFileSync } from 'node:fs';
import { resultsDir } from '../harness/paths.ts';
import type { RunResult } from '../harness/run.ts';
import { jsonLine, verdictLine } from './console.ts';
import { type Chart, renderPng } from './plot.ts';

// The report of a run: loadtest/results/<scenario>/report.md with its PNG plots and result.json.
// The latest of each scenario is kept in the repo; the README quotes them.

const COLORS = {
  critical: '#c0392b',
  other: '#2471a3',
  grey: '#7f8c8d',
  green: '#27ae60',
  orange: '#e67e22',
};

function markers(r: RunResult) {
  // Faults and restarts, not the routine steps.
  return r.timeline
    .filter(
      (e) =>
        /kill|stop|start|restart|exited|clock|cancel|failpoint|mariadb/i.test(e.what) &&
        // The scenario's own line says why it killed; the fleet's SIGKILL line would repeat it.
        !/^SIG[A-Z]+ /.test(e.what) &&
        e.t >= -5,
    )
    .slice(0, 12)
    .map((e) => ({ x: e.t, label: e.what.slice(0, 40) }));
}

export function charts(r: RunResult): Record<string, Chart> {
  const s = r.analysis.series;
  const mk = markers(r);
  const origin = r.originMs;
  const samples = r.samples.map((x) => ({ ...x, s: (x.t - origin) / 1000 })).filter((x) => x.s >= -5);
  const out: Record<string, Chart> = {
    lateness: {
      title: `${r.scenario}: lateness by priority (first call − scheduled time)`,
      xLabel: 'seconds since the first due time (by arrival)',
      yLabel: 'lateness, ms',
      lines: [
        {
          name: 'critical p99',
          color: COLORS.critical,
          points: s.latenessOverTime.critical.map((b) => [b.t, b.p99]),
        },
        {
          name: 'critical p50',
          color: COLORS.critical,
          dashed: true,
          points: s.latenessOverTime.critical.map((b) => [b.t, b.p50]),
        },
        { name: 'other p99', color: COLORS.other, points: s.latenessOverTime.other.map((b) => [b.t, b.p99]) },
        {
          name: 'other p50',
          color: COLORS.other,
          dashed: true,
          points: s.latenessOverTime.other.map((b) => [b.t, b.p50]),
        },
      ],
      markers: mk,
    },
    'lateness-cdf': {
      title: `${r.scenario}: lateness distribution by priority`,
      xLabel: 'percentile',
      yLabel: 'lateness, ms',
      lines: [
        { name: 'critical', color: COLORS.critical, points: s.latenessCdf.critical },
        { name: 'other', color: COLORS.other, points: s.latenessCdf.other },
      ],
    },
    throughput: {
      title: `${r.scenario}: throughput (effects applied at the target)`,
      xLabel: 'seconds since the first due time',
      yLabel: 'effects per second',
      lines: [{ name: 'effects/s', color: COLORS.green, points: s.throughput }],
      markers: mk,
    },
    backlog: {
      title: `${r.scenario}: backlog`,
      xLabel: 'seconds since the first due time',
      yLabel: 'jobs',
      lines: [
        { name: 'due, not yet delivered', color: COLORS.grey, points: s.backlog },
        {
          name: 'pending (MySQL)',
          color: COLORS.orange,
          dashed: true,
          points: samples.map((x) => [x.s, x.pending]),
        },
        {
          name: 'running (MySQL)',
          color: COLORS.other,
          dashed: true,
          points: samples.map((x) => [x.s, x.running]),
        },
      ],
      markers: mk,
    },
  };
  if (r.peers?.length) {
    // One colour per peer; dsched solid, the peers dashed. Lateness: the critical calls and the rest.
    const palette = [COLORS.orange, COLORS.grey, COLORS.green, '#8e44ad', '#16a085'];
    const names = r.peers.map((p) => p.name).join(', ');
    out['vs-peer-lateness'] = {
      title: `dsched vs ${names}: lateness, same ${r.metrics.expected} calls due at once`,
      xLabel: 'percentile',
      yLabel: 'lateness, ms',
      lines: [
        { name: 'dsched critical', color: COLORS.critical, points: s.latenessCdf.critical },
        { name: 'dsched other', color: COLORS.other, points: s.latenessCdf.other },
        ...r.peers.flatMap((p, i) => [
          {
            name: `${p.name} critical`,
            color: palette[i % palette.length]!,
            dashed: true,
            points: p.analysis.series.latenessCdf.critical,
          },
          {
            name: `${p.name} other`,
            color: palette[i % palette.length]!,
            points: p.analysis.series.latenessCdf.other,
          },
        ]),
      ],
    };
    out['vs-peer-throughput'] = {
      title: `dsched vs ${names}: throughput after the due second`,
      xLabel: 'seconds since the due second',
      yLabel: 'effects per second',
      lines: [
        { name: 'dsched', color: COLORS.other, points: s.throughput },
        ...r.peers.map((p, i) => ({
          name: p.name,
          color: palette[i % palette.length]!,
          dashed: true,
          points: p.analysis.series.throughput,
        })),
      ],
    };
  }
  return out;
}

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export function markdown(r: RunResult, summary: string, plots: string[]): string {
  const m = r.machine;
  const lines = [
    `# loadtest: ${r.scenario}`,
    '',
    `${summary}.`,
    '',
    `Command: \`pnpm loadtest ${r.scenario}\` · commit ${m.before.commit} · ${m.before.at}`,
    '',
    `**${verdictLine(r)}**`,
    '',
    `Machine: ${m.before.cpus} × ${m.before.cpuModel}, ${m.before.memTotalGiB} GiB; load average ${m.before.load1} before, ${m.after.load1} after; Node ${m.before.node}. This machine is shared by several engineers: timings are provisional.`,
    m.before.busyProcesses.length
      ? `Busy processes at start: ${m.before.busyProcesses.map((p) => `\`${p}\``).join(', ')}.`
      : '',
    '',
    '## Figures',
    '',
    row(['metric', 'value']),
    row(['---', '---:']),
    ...Object.entries(r.metrics).map(([k, v]) => row([k, v])),
    '',
    `Registration: ${r.registration.tasks} tasks through task-api in ${r.registration.seconds.toFixed(1)} s (${r.registration.perSecond.toFixed(0)}/s). Sink: ${r.sink.cpuMs.toFixed(0)} ms CPU in all, ${r.sink.usPerCall} µs per call, event-loop utilisation ${r.sink.elu.toFixed(2)} (highest 1 s window ${r.sink.eluMax1s.toFixed(2)}): below 1, the sink was not the bottleneck.`,
    '',
    '## Checks',
    '',
    row(['check', 'result', 'detail']),
    row(['---', '---', '---']),
    ...r.checks.map((c) => row([c.name, c.ok ? 'ok' : '**FAIL**', c.detail])),
    '',
  ];
  const ex = Object.entries(r.analysis.examples);
  if (ex.length) {
    lines.push('## Evidence', '');
    for (const [kind, list] of ex) lines.push(`- ${kind}:`, ...list.map((e) => `  - \`${e}\``));
    lines.push('');
  }
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  lines.push(
    '## Timeline',
    '',
    '| t (s) | event |',
    '| ---: | --- |',
    ...r.timeline.map((e) => row([e.t.toFixed(1), e.what])),
    '',
  );
  lines.push('## Plots', '', ...plots.map((p) => `![${p}](${p})\n`));
  lines.push('', '```', jsonLine(r), '```', '');
  return lines.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n');
}

export async function writeReport(r: RunResult, summary: string): Promise<string> {
  const dir = resultsDir(r.scenario);
  mkdirSync(dir, { recursive: true });
  const plots: string[] = [];
  for (const [name, chart] of Object.entries({ ...charts(r), ...r.charts })) {
    writeFileSync(`${dir}${name}.png`, renderPng(chart));
    plots.push(`${name}.png`);
  }
  writeFileSync(`${dir}report.md`, markdown(r, summary, plots));
  const { analysis, samples, charts: _charts, ...rest } = r;
  writeFileSync(
    `${dir}result.json`,
    `${JSON.stringify({ ...rest, examples: analysis.examples }, null, 2)}\n`,
  );
  return `${dir}report.md`;
}
