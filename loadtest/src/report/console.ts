import type { RunResult } from '../harness/run.ts';

// What a run prints (docs/design.md "Conventions for measuring"): a readable table, the verdict line,
// and last the one JSON line {"scenario", "metrics"} that tools read.

const FIRST = ['expected', 'delivered', 'lost', 'duplicates', 'dead', 'cancelled', 'drain_s'];

export function table(rows: [string, string][]): string {
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n');
}

export function verdictLine(r: RunResult): string {
  const m = r.metrics;
  // A scenario that offers jobs without tasks (noisy-neighbour) has no occurrence accounting.
  const accounting =
    m.expected === undefined
      ? ''
      : `delivered ${m.delivered}/${m.expected}, lost ${m.lost}, duplicate effects ${m.duplicates}; `;
  return `verdict: ${r.verdict} ${r.scenario}: ${accounting}${r.headline}`;
}

export function jsonLine(r: RunResult): string {
  return JSON.stringify({ scenario: r.scenario, metrics: r.metrics });
}

export function printResult(r: RunResult, out: (s: string) => void): void {
  const keys = [
    ...FIRST.filter((k) => k in r.metrics),
    ...Object.keys(r.metrics).filter((k) => !FIRST.includes(k)),
  ];
  out(`\n${r.scenario}: metrics`);
  out(table(keys.map((k) => [k, String(r.metrics[k])])));
  out('\nchecks');
  out(table(r.checks.map((c) => [`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}`, c.detail])));
  for (const [kind, list] of Object.entries(r.analysis.examples)) {
    out(`\nexamples: ${kind}`);
    for (const e of list) out(`  ${e}`);
  }
  if (r.notes.length > 0) out(`\nnotes\n${r.notes.map((n) => `  ${n}`).join('\n')}`);
  out(
    `\nmachine: ${r.machine.before.cpus} cores, load ${r.machine.before.load1} before / ${r.machine.after.load1} after (shared machine: figures are provisional)`,
  );
  out('');
  out(verdictLine(r));
  out(jsonLine(r));
}
