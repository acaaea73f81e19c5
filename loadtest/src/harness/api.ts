import { Agent, request } from 'undici';
import { sleep } from './wait.ts';

// The public APIs as a tenant and an operator use them (docs/api.md), over keep-alive connections,
// spread over the replicas in turn. Transient answers (429 with Retry-After, 5xx, a connection
// refused while a replica restarts) are retried a bounded number of times.

export interface Tenant {
  index: number;
  id: string;
  apiKey: string;
  signingSecret: string;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
}

export class ApiClient {
  readonly #agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  readonly #urls: () => string[];
  #next = 0;

  constructor(urls: () => string[]) {
    this.#urls = urls;
  }

  #base(): string {
    const urls = this.#urls();
    const url = urls[this.#next++ % urls.length];
    if (!url) throw new Error('no API replica');
    return url;
  }

  async call<T>(
    method: string,
    path: string,
    options: { token: string; body?: unknown; tries?: number; timeoutMs?: number },
  ): Promise<ApiResponse<T>> {
    const tries = options.tries ?? 6;
    let last: unknown;
    for (let attempt = 1; attempt <= tries; attempt++) {
      try {
        const res = await request(`${this.#base()}${path}`, {
          method: method as 'GET',
          headers: {
            authorization: `Bearer ${options.token}`,
            ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: options.body !== undefined ? JSON.stringify(options.body) : null,
          dispatcher: this.#agent,
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
        const text = await res.body.text();
        const body = (text ? JSON.parse(text) : undefined) as T;
        if ((res.statusCode === 429 || res.statusCode >= 500) && attempt < tries) {
          const retryAfter = Number(res.headers['retry-after'] ?? 0);
          await sleep(Math.min(5000, retryAfter > 0 ? retryAfter * 1000 : 200 * attempt));
          continue;
        }
        return { status: res.statusCode, body };
      } catch (err) {
        last = err;
        if (attempt < tries) await sleep(250 * attempt);
      }
    }
    throw new Error(`${method} ${path} failed after ${tries} tries: ${String(last)}`);
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

export async function createTenant(
  api: ApiClient,
  adminToken: string,
  index: number,
  quotas: { maxConcurrency?: number; maxTasks?: number; rateLimitPerSecond?: number } = {},
): Promise<Tenant> {
  const res = await api.call<{ id: string; apiKey: string; signingSecret: string }>(
    'POST',
    '/v1/admin/tenants',
    {
      token: adminToken,
      body: { name: `loadtest-${index}`, maxTasks: 10_000_000, ...quotas },
    },
  );
  if (res.status !== 201)
    throw new Error(`create tenant ${index}: ${res.status} ${JSON.stringify(res.body)}`);
  return { index, id: res.body.id, apiKey: res.body.apiKey, signingSecret: res.body.signingSecret };
}
