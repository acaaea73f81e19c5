// What the runner and the sink exchange. A target URL is /s/<tenant index>/<profile name>: the
// profile says how the sink answers, the tenant index lets it count in-flight calls per tenant and
// complete 202 jobs with that tenant's key. Anything after the profile (`/s/<tenant>/<profile>/<tail>`)
// is recorded as the call's tail: a workflow scenario puts the node's id there.

export interface SinkProfile {
  /** Share of calls (0..1) answered `failStatus` (default 503), without the effect. */
  failShare?: number;
  failStatus?: number;
  /** Calls of attempt 1..N are answered `failStatus` (default 503), without the effect; later ones go on as the rest says. */
  failAttempts?: number;
  /** The answer waits a uniform random delay in [min, max] ms (the effect happens at the answer). */
  delayMs?: [number, number];
  /**
   * Answer 202 at once and finish later through job-api: `POST /v1/jobs/{id}/complete`
   * {attempt, outcome}, heartbeating every `heartbeatMs` meanwhile.
   */
  async?: { completeAfterMs: number; heartbeatMs?: number; outcome?: 'succeeded' | 'failed' };
}

export interface SinkConfig {
  profiles: Record<string, SinkProfile>;
  /** Tenant index → API key, for 202 completions. */
  tenantKeys: Record<number, string>;
  /** job-api base URLs, used in turn. */
  jobApiUrls: string[];
}

/** Every call, column by column (cheap to record, cheap to ship). */
export interface SinkRecords {
  key: string[];
  taskId: string[];
  scheduledFor: string[];
  attempt: number[];
  tenant: number[];
  profile: string[];
  /** What followed the profile in the path (`/s/<tenant>/<profile>/<tail>`), '' when nothing: a workflow node's id. */
  tail: string[];
  /** ms since the epoch, sub-millisecond. */
  arrival: number[];
  answeredAt: number[];
  /** The status answered; 0 when the caller hung up first. */
  status: number[];
  /** 1 when this call applied the effect (the first answered call of its key). */
  effect: number[];
  completions: { key: string; attempt: number; status: number; at: number }[];
}

export interface SinkStats {
  calls: number;
  answered: number;
  effects: number;
  inFlight: number;
  maxInFlightByTenant: Record<number, number>;
  completions: Record<string, number>;
  /** CPU the sink process used since the last reset, ms. */
  cpuMs: number;
  /** Event loop utilisation since the last reset, and the highest over any 1 s window (0..1). */
  elu: number;
  eluMax1s: number;
  sinceResetMs: number;
}

export function sinkUrl(base: string, tenant: number, profile: string): string {
  return `${base}/s/${tenant}/${profile}`;
}
