// The image's HEALTHCHECK: finds which service this container runs (from the command line of its
// Node process, since the entry point takes the service as an argument) and asks that service's
// /healthz on its port. The one-shot migration and the demo target count as healthy while alive.
import { readdirSync, readFileSync } from 'node:fs';

const PORTS: Record<string, [variable: string, fallback: number]> = {
  'task-api': ['TASK_API_PORT', 8080],
  'job-api': ['JOB_API_PORT', 8081],
  scheduler: ['METRICS_PORT', 9101],
  executor: ['METRICS_PORT', 9102],
  reconciler: ['METRICS_PORT', 9103],
  archiver: ['METRICS_PORT', 9104],
};

function runningService(): string | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const match = /services\/([a-z-]+)\/src\/main\.ts/.exec(command);
    if (match) return match[1];
  }
  return undefined;
}

const service = runningService();
const port = service ? PORTS[service] : undefined;
if (!port) process.exit(0);
const [variable, fallback] = port;
try {
  const res = await fetch(`http://127.0.0.1:${process.env[variable] ?? fallback}/healthz`, {
    signal: AbortSignal.timeout(2_000),
  });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
