import { createInterface } from 'node:readline';
import { type Child, spawnChild } from '../harness/processes.ts';
import type { SinkConfig, SinkRecords, SinkStats } from './protocol.ts';

// The runner's handle on the sink process.
export class SinkProcess {
  readonly url: string;
  readonly child: Child;

  private constructor(url: string, child: Child) {
    this.url = url;
    this.child = child;
  }

  static async start(logFile: string): Promise<SinkProcess> {
    const child = spawnChild('sink', [process.execPath, new URL('./main.ts', import.meta.url).pathname], {
      logFile,
      pipeStdout: true,
      pipeStdin: true,
    });
    const lines = createInterface({ input: child.process.stdout! });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sink did not start within 10 s')), 10_000);
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      });
      void child.exited.then((code) => reject(new Error(`sink exited (${code}) during start`)));
    });
    return new SinkProcess(`http://127.0.0.1:${port}`, child);
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      ...(body !== undefined
        ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
        : {}),
    });
    if (!res.ok) throw new Error(`sink ${method} ${path}: ${res.status}`);
    return (await res.json()) as T;
  }

  configure(config: SinkConfig): Promise<unknown> {
    return this.#call('POST', '/_sink/config', config);
  }
  stats(): Promise<SinkStats> {
    return this.#call('GET', '/_sink/stats');
  }
  records(): Promise<SinkRecords> {
    return this.#call('GET', '/_sink/records');
  }
  /** Which of these Idempotency-Keys the sink has had a call of. */
  async seen(keys: string[]): Promise<string[]> {
    return (await this.#call<{ seen: string[] }>('POST', '/_sink/seen', { keys })).seen;
  }
  reset(): Promise<unknown> {
    return this.#call('POST', '/_sink/reset');
  }
  stop(): Promise<number | string> {
    return this.child.stop('SIGTERM', 5_000);
  }
}
