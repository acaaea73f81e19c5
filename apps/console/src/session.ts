import { DschedApiError, DschedClient } from '@dsched/client/browser';

// Who is signed in, kept in sessionStorage (gone when the tab closes): a tenant's API key, or the
// admin token for the operator view, and task-api's URL. job-api is this page's own origin.

export interface Session {
  apiKey?: string;
  adminToken?: string;
  taskApi: string;
}

const KEY = 'dsched.console.session';

export function loadSession(): Session | undefined {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Session;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

export function clientFor(session: Session): DschedClient {
  return new DschedClient({
    taskApi: session.taskApi,
    jobApi: location.origin,
    apiKey: session.apiKey,
    adminToken: session.adminToken,
    retries: 2,
  });
}

interface ConsoleConfig {
  taskApi: string | null;
  /** A trace's URL with `{traceId}` in it (CONSOLE_TRACE_URL), or null. */
  traceUrl?: string | null;
}

let config: Promise<ConsoleConfig | null> | undefined;

/** job-api's /ui/config.json, read once. */
function consoleConfig(): Promise<ConsoleConfig | null> {
  config ??= fetch('config.json')
    .then((res) => (res.ok ? (res.json() as Promise<ConsoleConfig>) : null))
    .catch(() => null);
  return config;
}

/** task-api's URL as job-api was configured to hand it out (CONSOLE_TASK_API_URL), or null. */
export async function configuredTaskApi(): Promise<string | null> {
  return (await consoleConfig())?.taskApi ?? null;
}

/** Where a trace is shown (CONSOLE_TRACE_URL with the id put in), or null when none is configured. */
export async function traceUrl(traceId: string): Promise<string | null> {
  const template = (await consoleConfig())?.traceUrl;
  return template ? template.replaceAll('{traceId}', encodeURIComponent(traceId)) : null;
}

/** A message for a failed call: the API's own, with each field it named. */
export function describeError(error: unknown): string {
  if (error instanceof DschedApiError) {
    const fields = error.details.map((d) => `${d.field}: ${d.issue}`).join('; ');
    const message = (error.body as { error?: { message?: string } } | undefined)?.error?.message;
    return `${error.status} ${error.code}: ${fields || message || error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The issues the API named, by field (`schedule.timezone` → "unknown time zone"). */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof DschedApiError) for (const d of error.details) out[d.field] ??= d.issue;
  return out;
}
