import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { SinkConfig, SinkProfile, SinkRecords, SinkStats } from './protocol.ts';

// The harness's HTTP target. It must never be the bottleneck of what it measures (30,000 calls in
// a few seconds), so a call costs a few array pushes and one Map lookup: no body parsing, no
// per-call objects, no logging. Analysis happens in the runner, on the shipped columns.
//
// The effect is idempotent the way a careful endpoint does it: the first answered call of an
// Idempotency-Key applies it; every later call with that key is a redelivery and changes nothing.

const OK_HEADERS = { 'content-type': 'text/plain', 'content-length': '2' };
const MAX_TENANTS = 1024;

function emptyRecords(): SinkRecords {
  return {
    key: [],
    taskId: [],
    scheduledFor: [],
    attempt: [],
    tenant: [],
    profile: [],
    tail: [],
    arrival: [],
    answeredAt: [],
    status: [],
    effect: [],
    completions: [],
  };
}

const now = () => performance.timeOrigin + performance.now();

interface AsyncJob {
  tenant: number;
  attempt: number;
  completed: boolean;
}

export class Sink {
  #config: SinkConfig = { profiles: {}, tenantKeys: {}, jobApiUrls: [] };
  #rec = emptyRecords();
  #effects = new Map<string, number>();
  #async = new Map<string, AsyncJob>();
  #inFlight = new Int32Array(MAX_TENANTS);
  #maxInFlight = new Int32Array(MAX_TENANTS);
  #inFlightTotal = 0;
  #answered = 0;
  #completions: Record<string, number> = {};
  #timers = new Set<NodeJS.Timeout>();
  #agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
  #nextJobApi = 0;
  #cpuAtReset = process.cpuUsage();
  #eluAtReset = performance.eventLoopUtilization();
  #eluWindowStart = performance.eventLoopUtilization();
  #eluMax = 0;
  #resetAt = now();
  #eluTimer: NodeJS.Timeout;

  constructor() {
    this.#eluTimer = setInterval(() => {
      const current = performance.eventLoopUtilization();
      this.#eluMax = Math.max(
        this.#eluMax,
        performance.eventLoopUtilization(current, this.#eluWindowStart).utilization,
      );
      this.#eluWindowStart = current;
    }, 1000);
    this.#eluTimer.unref();
  }

  configure(config: SinkConfig): void {
    this.#config = config;
  }

  reset(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#rec = emptyRecords();
    this.#effects.clear();
    this.#async.clear();
    this.#inFlight.fill(0);
    this.#maxInFlight.fill(0);
    this.#inFlightTotal = 0;
    this.#answered = 0;
    this.#completions = {};
    this.#cpuAtReset = process.cpuUsage();
    this.#eluAtReset = performance.eventLoopUtilization();
    this.#eluWindowStart = this.#eluAtReset;
    this.#eluMax = 0;
    this.#resetAt = now();
  }

  records(): SinkRecords {
    return this.#rec;
  }

  /** Which of `keys` have had a call arrive (answered or not). */
  seen(keys: string[]): string[] {
    const wanted = new Set(keys);
    const out = new Set<string>();
    for (const key of this.#rec.key) if (wanted.has(key)) out.add(key);
    return [...out];
  }

  stats(): SinkStats {
    const cpu = process.cpuUsage(this.#cpuAtReset);
    const maxByTenant: Record<number, number> = {};
    for (let i = 0; i < MAX_TENANTS; i++)
      if (this.#maxInFlight[i]) maxByTenant[i] = this.#maxInFlight[i] as number;
    return {
      calls: this.#rec.key.length,
      answered: this.#answered,
      effects: this.#effects.size,
      inFlight: this.#inFlightTotal,
      maxInFlightByTenant: maxByTenant,
      completions: { ...this.#completions },
      cpuMs: (cpu.user + cpu.system) / 1000,
      elu: performance.eventLoopUtilization(this.#eluAtReset).utilization,
      eluMax1s: this.#eluMax,
      sinceResetMs: now() - this.#resetAt,
    };
  }

  /** One call of a job. `tenant`, `profile` and `tail` come from the path /s/<tenant>/<profile>[/<tail>]. */
  handleCall(
    req: IncomingMessage,
    res: ServerResponse,
    tenant: number,
    profileName: string,
    tail = '',
  ): void {
    const arrival = now();
    const h = req.headers;
    const key = (h['idempotency-key'] as string | undefined) ?? '';
    const rec = this.#rec;
    const i = rec.key.length;
    rec.key.push(key);
    rec.taskId.push((h['dsched-task-id'] as string | undefined) ?? '');
    rec.scheduledFor.push((h['dsched-scheduled-for'] as string | undefined) ?? '');
    rec.attempt.push(Number(h['dsched-attempt'] ?? 0));
    rec.tenant.push(tenant);
    rec.profile.push(profileName);
    rec.tail.push(tail);
    rec.arrival.push(arrival);
    rec.answeredAt.push(0);
    rec.status.push(0);
    rec.effect.push(0);
    req.resume();
    const t = tenant < MAX_TENANTS && tenant >= 0 ? tenant : 0;
    const inFlight = ++this.#inFlight[t]!;
    if (inFlight > this.#maxInFlight[t]!) this.#maxInFlight[t] = inFlight;
    this.#inFlightTotal++;

    const profile = this.#config.profiles[profileName];
    if (!profile || (!profile.delayMs && !profile.failShare && !profile.failAttempts && !profile.async)) {
      this.#answer(res, i, t, key, 200);
      return;
    }
    const status = this.#decide(profile, key, i, tenant);
    const delay = profile.delayMs
      ? profile.delayMs[0] + Math.random() * (profile.delayMs[1] - profile.delayMs[0])
      : 0;
    if (delay <= 0) {
      this.#answer(res, i, t, key, status);
      return;
    }
    // Either the timer answers, or the caller hangs up first (timeout, executor killed): then
    // no effect and no status. 'close' also fires after a normal answer, hence the flag.
    let open = true;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!open) return;
      open = false;
      this.#answer(res, i, t, key, status);
    }, delay);
    this.#timers.add(timer);
    res.once('close', () => {
      if (!open) return;
      open = false;
      clearTimeout(timer);
      this.#timers.delete(timer);
      this.#leave(t);
    });
  }

  #decide(profile: SinkProfile, key: string, i: number, tenant: number): number {
    if (profile.failAttempts && (this.#rec.attempt[i] ?? 0) <= profile.failAttempts)
      return profile.failStatus ?? 503;
    if (profile.failShare && Math.random() < profile.failShare) return profile.failStatus ?? 503;
    if (!profile.async) return 200;
    const job = this.#async.get(key);
    const attempt = this.#rec.attempt[i] ?? 0;
    if (job?.completed) return 200;
    if (job) {
      job.attempt = Math.max(job.attempt, attempt);
      return 202;
    }
    this.#async.set(key, { tenant, attempt, completed: false });
    this.#scheduleCompletion(key, profile.async);
    return 202;
  }

  #answer(res: ServerResponse, i: number, t: number, key: string, status: number): void {
    const rec = this.#rec;
    if (status >= 200 && status < 300 && !this.#effects.has(key)) {
      this.#effects.set(key, i);
      rec.effect[i] = 1;
    }
    rec.status[i] = status;
    rec.answeredAt[i] = now();
    this.#answered++;
    res.writeHead(status, OK_HEADERS);
    res.end('ok');
    this.#leave(t);
  }

  #leave(t: number): void {
    this.#inFlight[t]!--;
    this.#inFlightTotal--;
  }

  #scheduleCompletion(key: string, spec: NonNullable<SinkProfile['async']>): void {
    const startedAt = now();
    const tick = async () => {
      const job = this.#async.get(key);
      if (!job || job.completed) return;
      const due = now() - startedAt >= spec.completeAfterMs;
      if (due) {
        await this.#complete(key, job, spec.outcome ?? 'succeeded');
        return;
      }
      if (spec.heartbeatMs) await this.#jobApi(key, job, 'heartbeat', { attempt: job.attempt });
      this.#later(
        tick,
        Math.min(spec.heartbeatMs ?? spec.completeAfterMs, startedAt + spec.completeAfterMs - now()),
      );
    };
    this.#later(tick, Math.min(spec.heartbeatMs ?? spec.completeAfterMs, spec.completeAfterMs));
  }

  #later(fn: () => Promise<void>, ms: number): void {
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        void fn();
      },
      Math.max(0, ms),
    );
    this.#timers.add(timer);
  }

  async #complete(key: string, job: AsyncJob, outcome: string): Promise<void> {
    // Bounded: a stale attempt (409) is retried with the newest attempt seen, a network error
    // after a pause; a missing endpoint (404/405: not built yet) ends it.
    for (let tries = 0; tries < 6; tries++) {
      const attempt = job.attempt;
      const status = await this.#jobApi(key, job, 'complete', { attempt, outcome });
      this.#rec.completions.push({ key, attempt, status, at: now() });
      if (status >= 200 && status < 300) {
        job.completed = true;
        return;
      }
      if (status === 409 && job.attempt > attempt) continue;
      if (status !== 0 && status !== 503) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async #jobApi(key: string, job: AsyncJob, verb: 'complete' | 'heartbeat', body: object): Promise<number> {
    const urls = this.#config.jobApiUrls;
    const apiKey = this.#config.tenantKeys[job.tenant];
    if (urls.length === 0 || !apiKey) return 0;
    const base = urls[this.#nextJobApi++ % urls.length];
    let status = 0;
    try {
      const res = await request(`${base}/v1/jobs/${key}/${verb}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher: this.#agent,
      });
      await res.body.dump();
      status = res.statusCode;
    } catch {
      status = 0;
    }
    const label = `${verb}:${status}`;
    this.#completions[label] = (this.#completions[label] ?? 0) + 1;
    return status;
  }

  close(): void {
    clearInterval(this.#eluTimer);
    this.reset();
    void this.#agent.close();
  }
}

/** The sink's HTTP server: /s/<tenant>/<profile>[/<tail>] are calls; /_sink/* is the runner's control. */
export function createSinkServer(sink: Sink): Server {
  const server = createServer({ keepAliveTimeout: 60_000, requestTimeout: 0 }, (req, res) => {
    const url = req.url ?? '/';
    if (url.charCodeAt(1) === 115 /* s */ && url.charCodeAt(2) === 47 /* / */) {
      const slash = url.indexOf('/', 3);
      const tenant = Number(url.slice(3, slash < 0 ? undefined : slash));
      const end = slash < 0 ? -1 : url.indexOf('/', slash + 1);
      const profile = slash < 0 ? '' : url.slice(slash + 1, end < 0 ? undefined : end);
      const tail = end < 0 ? '' : url.slice(end + 1);
      sink.handleCall(req, res, Number.isFinite(tenant) ? tenant : 0, profile, tail);
      return;
    }
    control(sink, req, res);
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 0;
  return server;
}

function control(sink: Sink, req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    };
    try {
      switch (`${req.method} ${req.url}`) {
        case 'GET /_sink/stats':
          return send(200, sink.stats());
        case 'GET /_sink/records':
          return send(200, sink.records());
        case 'POST /_sink/seen': {
          const { keys } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { keys: string[] };
          return send(200, { seen: sink.seen(keys) });
        }
        case 'POST /_sink/config':
          sink.configure(JSON.parse(Buffer.concat(chunks).toString('utf8')) as SinkConfig);
          return send(200, { ok: true });
        case 'POST /_sink/reset':
          sink.reset();
          return send(200, { ok: true });
        default:
          return send(404, { error: 'unknown sink route' });
      }
    } catch (err) {
      send(400, { error: String(err) });
    }
  });
}
