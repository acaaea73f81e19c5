import type { Failpoint } from '../ports.ts';

/**
 * TEST ONLY (ARCHIVER_FAILPOINT=after-history-write): dies like `kill -9` between the history
 * write and the MySQL delete. SIGKILL cannot be caught, so no shutdown step runs, exactly as in
 * a real crash.
 */
export function failpoint(name: 'after-history-write' | undefined): Failpoint | undefined {
  if (name !== 'after-history-write') return undefined;
  return () => {
    process.stderr.write('archiver: ARCHIVER_FAILPOINT=after-history-write reached: SIGKILL\n');
    process.kill(process.pid, 'SIGKILL');
  };
}
