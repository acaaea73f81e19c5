// node bench/profile-top.ts FILE.cpuprofile [--top N] [--window FUNCTION] [--inclusive PATTERN,...]
//
// The top self-time functions of a V8 CPU profile (as written by `pnpm bench executor --cpu-prof
// DIR`), over the run window only: from the first to the last sample with FUNCTION on its stack
// (default `#execute`, a job's path through the executor's lane), so start-up, module loading and
// the idle tail are left out; `--window all` reads the whole profile. --inclusive: the share of samples whose stack has a function whose
// name or file matches each pattern (a family: `mysql2`, `undici`, `prom-client`, ...).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args[0];
if (!file) {
  process.stderr.write('usage: node bench/profile-top.ts FILE.cpuprofile [--top N] [--window FUNCTION]\n');
  process.exit(2);
}
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const top = Number(option('top') ?? 25);
const windowFn = option('window') ?? '#execute';
const families = (option('inclusive') ?? '').split(',').filter(Boolean);
const callersOf = option('callers');

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stackOf = (id: number): ProfileNode[] => {
  const stack: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
  return stack;
};

// Each sample's duration is the delta to the next sample.
const durations = profile.samples.map((_, i) => profile.timeDeltas[i + 1] ?? 0);
// `--window all`: the whole profile (an idle process, say).
const inWindow = profile.samples.map(
  (id) => windowFn === 'all' || stackOf(id).some((n) => n.callFrame.functionName === windowFn),
);
const first = inWindow.indexOf(true);
const last = inWindow.lastIndexOf(true);
if (first < 0) {
  process.stderr.write(`no sample has ${windowFn} on its stack\n`);
  process.exit(1);
}

const where = (n: ProfileNode) => {
  const url = n.callFrame.url;
  const short = url.includes('node_modules')
    ? url.slice(url.lastIndexOf('node_modules/') + 'node_modules/'.length)
    : url.replace(/^file:\/\/.*?\/(services|packages)\//, '$1/');
  return short ? `${short}:${n.callFrame.lineNumber + 1}` : '';
};
const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}\t${where(n)}`;

const callers = new Map<string, number>();
let total = 0;
let idle = 0;
const self = new Map<string, number>();
const inclusive = new Map<string, number>(families.map((f) => [f, 0]));
for (let i = first; i <= last; i++) {
  const id = profile.samples[i]!;
  const us = durations[i]!;
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') {
    idle += us;
    continue;
  }
  total += us;
  self.set(label(node), (self.get(label(node)) ?? 0) + us);
  if (callersOf && node.callFrame.functionName === callersOf) {
    // Node's own frames (streams, sockets) skipped: the caller that matters is the library's or ours.
    const path = stackOf(id)
      .slice(1)
      .filter((n) => !n.callFrame.url.startsWith('node:'))
      .slice(0, 5)
      .map((n) => `${n.callFrame.functionName || '(anonymous)'} ${where(n)}`)
      .join(' < ');
    callers.set(path, (callers.get(path) ?? 0) + us);
  }
  if (families.length > 0) {
    const stack = stackOf(id);
    for (const f of families) {
      if (stack.some((n) => n.callFrame.functionName.includes(f) || n.callFrame.url.includes(f))) {
        inclusive.set(f, inclusive.get(f)! + us);
      }
    }
  }
}

process.stdout.write(
  `${file}\nwindow: ${((total + idle) / 1000).toFixed(0)} ms, busy ${(total / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms\n\n`,
);
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
for (const [name, us] of rows) {
  process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}\n`);
}
if (families.length > 0) {
  process.stdout.write('\ninclusive (share of busy samples with the pattern on the stack)\n');
  for (const [f, us] of inclusive)
    process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${f}\n`);
}
if (callersOf) {
  process.stdout.write(
    `\ncallers of ${callersOf} (its self time, by the five frames above it outside node:)\n`,
  );
  for (const [path, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${path}\n`);
  }
}
