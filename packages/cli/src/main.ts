#!/usr/bin/env node
import { CommanderError } from 'commander';
import { describeError, EXIT, exitCodeOf } from './exit-codes.ts';
import { buildProgram } from './program.ts';
import type { Io } from './runtime.ts';

// The `dsched` command: scripts/dsched (the launcher scripts/up.sh puts on PATH) runs it. Runs on
// Node 24 as TypeScript (type stripping), no build step.

const controller = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  // The first ^C stops a live command at its next poll; a second one exits at once.
  if (interrupted) process.exit(EXIT.interrupted);
  interrupted = true;
  controller.abort();
});

const io: Io = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
  stdinIsTty: process.stdin.isTTY === true,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

let code: number = EXIT.ok;
const program = buildProgram(io, (c) => {
  code = c;
});
try {
  await program.parseAsync(process.argv);
} catch (err) {
  code = exitCodeOf(err);
  // commander already printed its own usage errors.
  if (!(err instanceof CommanderError)) io.stderr(`${describeError(err)}\n`);
}
process.exitCode = code;
