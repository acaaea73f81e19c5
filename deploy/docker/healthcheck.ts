// The image's HEALTHCHECK: asks /healthz of the service this container runs, on its port. Which
// service that is comes from DSCHED_SERVICE when set, else from the command line of the Node
// process (the entry point takes the service as an argument, which the health check cannot see).
// The one-shot migration and the demo target count as healthy while they live.
import { readdirSync, readFileSync } from 'node:fs';

/** Each service's port variable and its default. */
export const SERVICE_PORTS: Record<string, [variable: string, fallback: number]> = {
  'task-api': ['TASK_API_PORT', 8080],
  'job-api': ['JOB_API_PORT', 8081],
  scheduler: ['METRICS_PORT', 9101],
  executor: ['METRICS_PORT', 9102],
  reconciler: ['METRICS_PORT', 9103],
  archiver: ['METRICS_PORT', 9104],
};

/** The service a process runs, from its command line (NUL-separated, as /proc gives it). */
export function serviceOfCommandLine(commandLine: string): string | undefined {
  const match = /services\/([a-z-]+)\/src\/main\.ts/.exec(commandLine);
  return match && match[1]! in SERVICE_PORTS ? match[1] : undefined;
}

/** The /healthz URL of a service in this container, or undefined for one without a port. */
export function healthUrl(service: string, env: Record<string, string | undefined>): string | undefined {
  const port = SERVICE_PORTS[service];
  if (!port) return undefined;
  return `http://127.0.0.1:${env[port[0]] ?? port[1]}/healthz`;
}

function serviceInThisContainer(): string | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const service = serviceOfCommandLine(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      if (service) return service;
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

if (import.meta.main) {
  const service = process.env.DSCHED_SERVICE ?? serviceInThisContainer();
  const url = service ? healthUrl(service, process.env) : undefined;
  if (!url) process.exit(0);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    process.exit(res.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}
