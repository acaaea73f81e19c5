import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Fleet, Instance } from './fleet.ts';
import type { StoresView } from './stores-view.ts';

// Faults that need more than a kill: a process's wall clock moved (libfaketime), the scheduler
// that leads right now.

const FAKETIME_LIBS = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1',
];

/** libfaketime's library, installed from Debian (`faketime`) when missing. */
export function faketimeLibrary(): string {
  let lib = FAKETIME_LIBS.find((p) => existsSync(p));
  if (!lib) {
    execFileSync(
      'bash',
      [
        '-c',
        'apt-get install -y -qq faketime >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq faketime)',
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    );
    lib = FAKETIME_LIBS.find((p) => existsSync(p));
  }
  if (!lib) throw new Error('libfaketime not found after installing the Debian package faketime');
  return lib;
}

/**
 * A wall clock the harness can move while a process runs: the process reads its offset from a
 * file (re-read every second). The monotonic clock is left alone, as on a real host whose clock
 * is stepped: timers keep their pace, only Date moves.
 */
export class MovableClock {
  readonly file: string;
  readonly env: Record<string, string>;

  constructor(file: string) {
    this.file = file;
    mkdirSync(dirname(file), { recursive: true });
    this.set(0);
    this.env = {
      LD_PRELOAD: faketimeLibrary(),
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_CACHE_DURATION: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
  }

  /** Moves the clock to `offsetS` seconds from the real time. */
  set(offsetS: number): void {
    writeFileSync(this.file, `${offsetS >= 0 ? '+' : ''}${offsetS}\n`);
  }

  /** What a process under this clock reads as now, minus the real now, in seconds. */
  observedOffsetS(): number {
    const before = Date.now();
    const out = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(Date.now()))'], {
      env: { ...process.env, ...this.env },
      encoding: 'utf8',
    });
    return Math.round((Number(out) - (before + Date.now()) / 2) / 1000);
  }
}

/** The running scheduler holding the most partition leases; the first one when none holds any. */
export async function leadingScheduler(fleet: Fleet, view: StoresView): Promise<Instance | undefined> {
  const running = fleet.of('scheduler').filter((s) => s.running() && !s.held);
  const holders = await view.leaseHolders().catch(() => new Map<string, number>());
  let best: Instance | undefined;
  let most = 0;
  for (const s of running) {
    const n = holders.get(s.id) ?? 0;
    if (n > most) [best, most] = [s, n];
  }
  return best ?? running[0];
}
