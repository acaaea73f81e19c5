import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

// Every process the harness starts goes through here, so that all of them die with the harness:
// on normal exit, on an error, on SIGINT/SIGTERM/SIGHUP. Children get SIGKILL at the end (the
// harness has already stopped the ones it wanted to stop gracefully). Their pids are also written
// to a file, so a harness that was itself killed -9 lets the next run end its orphans, by pid.

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  /** Resolves with the exit code, or the signal name. */
  exited: Promise<number | string>;
  running(): boolean;
  kill(signal?: NodeJS.Signals): void;
  /** Sends `signal`, waits up to `graceMs`, then SIGKILL. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | string>;
}

const children = new Set<Child>();
let pidFile: string | undefined;
let hooksInstalled = false;

function killAllNow(): void {
  for (const c of children) {
    if (c.running()) {
      try {
        process.kill(c.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nloadtest: ${signal}, killing ${children.size} child processes\n`);
      killAllNow();
      process.exit(130);
    });
  }
}

/** Kills the processes a previous, killed harness run left behind (only pids whose command line still matches). */
export function adoptPidFile(path: string): void {
  pidFile = path;
  mkdirSync(dirname(path), { recursive: true });
  let previous: { pid: number; cmd: string }[] = [];
  try {
    previous = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; cmd: string }[];
  } catch {
    // no previous run
  }
  for (const { pid, cmd } of previous) {
    try {
      const now = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (now === cmd) {
        process.stderr.write(`loadtest: killing leftover pid ${pid} (${cmd.slice(0, 80)})\n`);
        process.kill(pid, 'SIGKILL');
      }
    } catch {
      // gone
    }
  }
  writeFileSync(path, '[]');
}

function savePids(): void {
  if (!pidFile) return;
  const list = [...children]
    .filter((c) => c.running())
    .map((c) => ({ pid: c.pid, cmd: [c.process.spawnfile, ...c.process.spawnargs.slice(1)].join(' ') }));
  writeFileSync(pidFile, JSON.stringify(list));
}

export interface SpawnOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Output goes to this file (appended); otherwise it is discarded. */
  logFile?: string;
  /** Keep stdout as a pipe for the caller (stderr still goes to the log file). */
  pipeStdout?: boolean;
  /** Give the child a stdin pipe: a child that exits on its EOF dies with the harness, even a killed one. */
  pipeStdin?: boolean;
}

export function spawnChild(name: string, command: string[], options: SpawnOptions = {}): Child {
  installExitHooks();
  const [file, ...args] = command;
  if (!file) throw new Error(`spawnChild(${name}): empty command`);
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  const proc = spawn(file, args, {
    cwd: options.cwd,
    env: options.env ?? (process.env as Record<string, string>),
    stdio: [
      options.pipeStdin ? 'pipe' : 'ignore',
      options.pipeStdout ? 'pipe' : log ? 'pipe' : 'ignore',
      log ? 'pipe' : 'ignore',
    ],
  });
  if (log) {
    if (!options.pipeStdout) proc.stdout?.pipe(log, { end: false });
    proc.stderr?.pipe(log, { end: false });
  }
  if (proc.pid === undefined) throw new Error(`could not start ${name}: ${command.join(' ')}`);
  const exited = new Promise<number | string>((resolve) => {
    proc.on('exit', (code, signal) => {
      children.delete(child);
      savePids();
      log?.end();
      resolve(code ?? signal ?? -1);
    });
  });
  const running = () => proc.exitCode === null && proc.signalCode === null;
  const child: Child = {
    name,
    process: proc,
    pid: proc.pid,
    exited,
    running,
    kill: (signal = 'SIGKILL') => {
      if (running()) proc.kill(signal);
    },
    stop: async (signal = 'SIGTERM', graceMs = 10_000) => {
      if (!running()) return exited;
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  children.add(child);
  savePids();
  return child;
}

/** Stops every child still running: `signal` first, SIGKILL after `graceMs`. */
export async function stopAllChildren(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  await Promise.all([...children].map((c) => c.stop(signal, graceMs)));
}

export function runningChildren(): number {
  return [...children].filter((c) => c.running()).length;
}
