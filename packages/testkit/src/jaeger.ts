import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { REPO_ROOT } from './names.ts';
import { freePort } from './ports.ts';

// A private Jaeger for one test file (scripts/jaeger builds the binary; .ci/run's test.sh makes
// sure it is there): OTLP over HTTP in, the query API out, on free loopback ports, traces in memory.

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  startTime: number;
  duration: number;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; type: string; value: unknown }[];
  /** The span's events. */
  logs?: { timestamp: number; fields: { key: string; type: string; value: unknown }[] }[];
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: { key: string; value: unknown }[] }>;
}

export interface RunningJaeger {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the services. */
  otlpEndpoint: string;
  queryUrl: string;
  /** The trace as Jaeger's query API returns it; undefined while it has none of its spans. */
  trace(traceId: string): Promise<JaegerTrace | undefined>;
  /** Polls until the trace satisfies `done` (spans arrive over a few export rounds). */
  waitForTrace(traceId: string, done: (t: JaegerTrace) => boolean, timeoutMs?: number): Promise<JaegerTrace>;
  /** Every service that sent a span. */
  services(): Promise<string[]>;
  stop(): Promise<void>;
  output(): string;
}

export function jaegerBinary(): string {
  return execFileSync(`${REPO_ROOT}scripts/jaeger`, ['path'], { encoding: 'utf8' }).trim();
}

export async function startJaeger(): Promise<RunningJaeger> {
  const [otlpPort, queryPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(jaegerBinary(), ['--config', `${REPO_ROOT}deploy/jaeger/jaeger.yaml`], {
    env: {
      PATH: process.env.PATH ?? '',
      DSCHED_JAEGER_OTLP_PORT: String(otlpPort),
      DSCHED_JAEGER_QUERY_PORT: String(queryPort),
      DSCHED_JAEGER_QUERY_GRPC_PORT: String(grpcPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`jaeger exited at start:\n${out}`);
    const ok = await fetch(`${queryUrl}/api/services`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`jaeger not ready within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const trace = async (traceId: string) => {
    const res = await fetch(`${queryUrl}/api/traces/${traceId}`);
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`jaeger: GET /api/traces/${traceId}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { data: JaegerTrace[] | null };
    return body.data?.[0];
  };
  return {
    otlpEndpoint: `http://127.0.0.1:${otlpPort}`,
    queryUrl,
    trace,
    async waitForTrace(traceId, done, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      let last: JaegerTrace | undefined;
      for (;;) {
        last = await trace(traceId);
        if (last && done(last)) return last;
        if (Date.now() > until) {
          throw new Error(`trace ${traceId} not complete within ${timeoutMs} ms: ${describeTrace(last)}`);
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    async services() {
      const res = await fetch(`${queryUrl}/api/services`);
      return ((await res.json()) as { data: string[] | null }).data ?? [];
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    output: () => out,
  };
}

/** The service that sent a span. */
export function serviceOf(t: JaegerTrace, span: JaegerSpan): string {
  return t.processes[span.processID]?.serviceName ?? '?';
}

export function tagOf(span: JaegerSpan, key: string): unknown {
  return span.tags.find((t) => t.key === key)?.value;
}

/** The parent span id of a span (its CHILD_OF reference), if any. */
export function parentOf(span: JaegerSpan): string | undefined {
  return span.references.find((r) => r.refType === 'CHILD_OF')?.spanID;
}

/** One line per span, for failure messages. */
export function describeTrace(t: JaegerTrace | undefined): string {
  if (!t) return '(no trace)';
  return t.spans
    .slice()
    .sort((a, b) => a.startTime - b.startTime)
    .map((s) => `${serviceOf(t, s)}: ${s.operationName} ${s.spanID} <- ${parentOf(s) ?? '-'}`)
    .join('\n');
}
