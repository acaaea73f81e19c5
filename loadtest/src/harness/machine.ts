import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { REPO_ROOT } from './paths.ts';

// The machine a figure was measured on, recorded with it: this is a shared 2-core box, so every
// timing is provisional and only comparable with the load it ran beside.

export interface MachineState {
  at: string;
  cpus: number;
  cpuModel: string;
  load1: number;
  load5: number;
  memFreeGiB: number;
  memTotalGiB: number;
  node: string;
  commit: string;
  /** Processes other than this run's using CPU right now (ps), a hint of how shared the box was. */
  busyProcesses: string[];
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function busyProcesses(): string[] {
  try {
    const out = execFileSync('ps', ['-eo', 'pcpu,comm', '--sort=-pcpu', '--no-headers'], {
      encoding: 'utf8',
    });
    return out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && Number(l.split(/\s+/)[0]) >= 5)
      .slice(0, 8);
  } catch {
    return [];
  }
}

export function machineState(): MachineState {
  const [l1, l5] = loadavg();
  return {
    at: new Date().toISOString(),
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    load1: Number((l1 ?? 0).toFixed(2)),
    load5: Number((l5 ?? 0).toFixed(2)),
    memFreeGiB: Number((freemem() / 2 ** 30).toFixed(1)),
    memTotalGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    commit: commit(),
    busyProcesses: busyProcesses(),
  };
}
