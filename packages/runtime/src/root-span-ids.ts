import type { IdGenerator } from '@opentelemetry/sdk-trace';
import { randomHex } from './random-hex.ts';

// The ids of this process's spans: random, except for an occurrence's root span, which the
// archiver exports when the occurrence leaves MySQL with the ids its job stored at birth (a job
// born in a batch has no span of its own then: docs/tracing.md). The SDK takes a span's ids from
// its provider's generator inside startSpan, which is synchronous, so the ids set for one call
// cannot reach another.
export class RootSpanIds implements IdGenerator {
  #next: { traceId: string; spanId: string } | undefined;

  /** Runs `start` (one startSpan) with these ids for the span it makes. */
  withIds<T>(ids: { traceId: string; spanId: string }, start: () => T): T {
    this.#next = ids;
    try {
      return start();
    } finally {
      this.#next = undefined;
    }
  }

  generateTraceId(): string {
    return this.#next?.traceId ?? randomHex(16);
  }

  generateSpanId(): string {
    return this.#next?.spanId ?? randomHex(8);
  }
}

export const rootSpanIds = new RootSpanIds();
