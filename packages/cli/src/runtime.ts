import { createDschedClient, type DschedClient } from '@dsched/client';
import type { Command } from 'commander';
import { configPath, type GlobalFlags, readConfig, resolveSettings, type Settings } from './contexts.ts';
import { type OutputOptions, outputOptions, Progress, type Rendered, render } from './output.ts';

// What every command's action gets: its settings, a client built from them, the output options
// and a printer. Built per invocation from the command's options and the global flags.

export interface Io {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted on ^C: live commands (watch, --follow) stop at their next poll. */
  signal: AbortSignal;
  stdinIsTty: boolean;
  readStdin: () => Promise<string>;
}

export interface Runtime {
  io: Io;
  settings: Settings;
  configPath: string;
  out: OutputOptions;
  progress: Progress;
  client: () => DschedClient;
  print: (result: Rendered) => void;
}

export type GlobalOptions = GlobalFlags & { output?: string; time?: string };

export async function makeRuntime(command: Command, io: Io): Promise<Runtime> {
  const flags = command.optsWithGlobals() as GlobalOptions;
  const path = configPath(io.env);
  const settings = resolveSettings(flags, io.env, await readConfig(path));
  const out = outputOptions(flags);
  const progress = new Progress();
  let client: DschedClient | undefined;
  return {
    io,
    settings,
    configPath: path,
    out,
    progress,
    client: () => {
      client ??= createDschedClient({
        taskApi: settings.taskApi,
        jobApi: settings.jobApi,
        apiKey: settings.key,
        adminToken: settings.adminToken,
        userAgent: 'dsched-cli/0.1',
        onRetry: ({ delayMs, status }) =>
          progress.show(
            `retrying${status ? ` after HTTP ${status}` : ''} in ${(delayMs / 1000).toFixed(1)} s`,
          ),
      });
      return client;
    },
    print: (result) => {
      progress.clear();
      io.stdout(render(result, out));
    },
  };
}

/** Waits `ms`, or less when `signal` aborts (^C ends a live command at its next poll). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
