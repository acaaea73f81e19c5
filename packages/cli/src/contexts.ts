import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './exit-codes.ts';

// Named contexts: the URLs of task-api and job-api with an API key or the admin token, in one
// file readable only by its owner (`~/.config/dsched/config.json`, mode 0600; `DSCHED_CONFIG`
// names another). A setting comes from, first to last: its flag, its environment variable
// (DSCHED_TASK_API, DSCHED_JOB_API, DSCHED_KEY, DSCHED_ADMIN_TOKEN), the context named by
// --context or DSCHED_CONTEXT or made current by `context use`, then the local defaults.

export interface Context {
  taskApi?: string | undefined;
  jobApi?: string | undefined;
  key?: string | undefined;
  adminToken?: string | undefined;
}

export interface ConfigFile {
  current?: string;
  contexts: Record<string, Context>;
}

export const DEFAULT_TASK_API = 'http://127.0.0.1:8080';
export const DEFAULT_JOB_API = 'http://127.0.0.1:8081';

export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.DSCHED_CONFIG) return env.DSCHED_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'dsched', 'config.json');
}

export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { contexts: {} };
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<ConfigFile>;
  return { ...(parsed.current ? { current: parsed.current } : {}), contexts: parsed.contexts ?? {} };
}

/** Written whole to a temporary file and renamed, with mode 0600 before any secret is in it. */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, '', { mode: 0o600 });
  await chmod(tmp, 0o600);
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`);
  await rename(tmp, path);
}

export interface GlobalFlags {
  context?: string;
  taskApi?: string;
  jobApi?: string;
  key?: string;
  adminToken?: string;
}

export interface Settings {
  contextName: string | undefined;
  taskApi: string;
  jobApi: string;
  key: string | undefined;
  adminToken: string | undefined;
}

export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, config: ConfigFile): Settings {
  const name = flags.context ?? env.DSCHED_CONTEXT ?? config.current;
  const context = name !== undefined ? config.contexts[name] : undefined;
  if (name !== undefined && context === undefined && (flags.context ?? env.DSCHED_CONTEXT) !== undefined) {
    throw new UsageError(`no context named "${name}" (dsched context list)`, '--context');
  }
  return {
    contextName: context ? name : undefined,
    taskApi: flags.taskApi ?? env.DSCHED_TASK_API ?? context?.taskApi ?? DEFAULT_TASK_API,
    jobApi: flags.jobApi ?? env.DSCHED_JOB_API ?? context?.jobApi ?? DEFAULT_JOB_API,
    key: flags.key ?? env.DSCHED_KEY ?? context?.key,
    adminToken: flags.adminToken ?? env.DSCHED_ADMIN_TOKEN ?? context?.adminToken,
  };
}

/** `dsk_abcd…` : enough to tell keys apart, not enough to use one. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return '-';
  return `${secret.slice(0, Math.min(8, Math.floor(secret.length / 3)))}…`;
}
