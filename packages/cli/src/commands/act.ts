import type { Command } from 'commander';
import { describeError, EXIT, exitCodeOf } from '../exit-codes.ts';
import type { Rendered } from '../output.ts';
import { type Io, makeRuntime, type Runtime } from '../runtime.ts';

// Wraps a command's handler: builds its runtime from the flags, and sets the exit code.

// biome-ignore lint/suspicious/noExplicitAny: commander hands positional arguments of any shape
// biome-ignore lint/suspicious/noConfusingVoidType: a handler returns nothing or an exit code
export type Handler = (rt: Runtime, ...args: any[]) => Promise<void | number>;
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Act = (handler: Handler) => (...args: any[]) => Promise<void>;

export function actWith(io: Io, setExit: (code: number) => void): Act {
  return (handler) =>
    async (...args) => {
      const command = args.at(-1) as Command;
      const rt = await makeRuntime(command, io);
      const code = await handler(rt, ...args.slice(0, -1));
      if (typeof code === 'number') setExit(code);
    };
}

/**
 * Runs one call per id, in order, printing each result; a failure is reported on stderr and the
 * others still run. The exit code is the worst seen (not found counts over other errors only
 * when it is the only kind).
 */
export async function eachId(
  rt: Runtime,
  ids: string[],
  run: (id: string) => Promise<Rendered>,
): Promise<number> {
  let worst: number = EXIT.ok;
  const bodies: unknown[] = [];
  const tables: string[] = [];
  for (const id of ids) {
    try {
      const r = await run(id);
      if (r.body !== undefined) bodies.push(r.body);
      tables.push(r.table());
    } catch (err) {
      rt.progress.clear();
      rt.io.stderr(`${id}: ${describeError(err)}\n`);
      const code = exitCodeOf(err);
      worst = worst === EXIT.ok || worst === EXIT.notFound ? code : worst;
    }
  }
  if (tables.length > 0) {
    rt.print({
      body: bodies.length === 0 ? undefined : ids.length === 1 ? bodies[0] : bodies,
      items: bodies,
      table: () => tables.join('\n'),
    });
  }
  return worst;
}
