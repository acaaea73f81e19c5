import { DschedError } from '@dsched/domain';
import type { FastifyInstance } from 'fastify';

// Repeated failed authentications from one address are slowed: past `maxFailures` failures
// (401 or 403 on /v1/) within `windowS`, every /v1/ request from that address answers 429 with
// Retry-After until the window ends. Guessing an API key is hopeless anyway (256 bits); this
// stops an address from hammering the key lookup and the admin token. Per process, in memory,
// bounded: at most `maxAddresses` are remembered, the least recently failing forgotten first.
// Behind a proxy every request has the proxy's address unless fastify's trustProxy is set.

export interface AuthThrottleOptions {
  maxFailures: number;
  windowS: number;
  /** How many addresses are remembered at most. */
  maxAddresses?: number;
  /** Monotonic milliseconds (a pace, not a scheduling decision). */
  nowMs?: () => number;
}

interface Failures {
  count: number;
  since: number;
}

export class FailedAuthThrottle {
  readonly #entries = new Map<string, Failures>();
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #maxAddresses: number;
  readonly #nowMs: () => number;

  constructor(options: AuthThrottleOptions) {
    this.#maxFailures = options.maxFailures;
    this.#windowMs = options.windowS * 1000;
    this.#maxAddresses = options.maxAddresses ?? 10_000;
    this.#nowMs = options.nowMs ?? (() => performance.now());
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Seconds the address must wait; 0 when it may try. */
  retryAfterS(address: string): number {
    const entry = this.#current(address);
    if (!entry || entry.count < this.#maxFailures) return 0;
    return Math.max(1, Math.ceil((entry.since + this.#windowMs - this.#nowMs()) / 1000));
  }

  recordFailure(address: string): void {
    const entry = this.#current(address) ?? { count: 0, since: this.#nowMs() };
    entry.count++;
    // Re-inserted last: the map's order is the order of the latest failures.
    this.#entries.delete(address);
    if (this.#entries.size >= this.#maxAddresses) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.#entries.set(address, entry);
  }

  #current(address: string): Failures | undefined {
    const entry = this.#entries.get(address);
    if (entry && this.#nowMs() - entry.since >= this.#windowMs) {
      this.#entries.delete(address);
      return undefined;
    }
    return entry;
  }
}

/** Installs the throttle on an API: call right after installErrorHandler, before any route. */
export function installAuthThrottle(app: FastifyInstance, options: AuthThrottleOptions): FailedAuthThrottle {
  const throttle = new FailedAuthThrottle(options);
  const guarded = (url: string) => url.startsWith('/v1/');
  app.addHook('onRequest', async (request) => {
    if (!guarded(request.url)) return;
    const wait = throttle.retryAfterS(request.ip);
    if (wait > 0) {
      throw new DschedError('resource_exhausted', 'too many failed authentications from this address', {
        retryAfterS: wait,
      });
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (guarded(request.url) && (reply.statusCode === 401 || reply.statusCode === 403)) {
      throttle.recordFailure(request.ip);
    }
  });
  return throttle;
}
