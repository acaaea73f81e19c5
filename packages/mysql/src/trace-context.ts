import { randomFillSync } from 'node:crypto';
import type { TraceContext } from '@dsched/domain';

// jobs.trace_context and workflows.trace_context (migration 0054): trace id (16 bytes), span id
// (8), flags (1, bit 0 sampled, bit 1 the root span owed by the archiver). Hex on the way in, for the JSON documents the batch inserts read.

/** The column's 25 bytes as the 50 hex digits a JSON document carries (UNHEX in SQL). */
export function traceToHex(ctx: TraceContext | null | undefined): string | null {
  return ctx ? `${ctx.traceId}${ctx.spanId}0${(ctx.sampled ? 1 : 0) | (ctx.rootOwed ? 2 : 0)}` : null;
}

export function traceToBin(ctx: TraceContext | null | undefined): Buffer | null {
  const hex = traceToHex(ctx);
  return hex === null ? null : Buffer.from(hex, 'hex');
}

/** A stored context, or null (none stored: a row older than the column, or a malformed one). */
export function binToTrace(bin: Buffer | null | undefined): TraceContext | null {
  if (!bin || bin.length !== 25) return null;
  return {
    traceId: bin.toString('hex', 0, 16),
    spanId: bin.toString('hex', 16, 24),
    sampled: (bin[24]! & 1) === 1,
    ...((bin[24]! & 2) === 2 ? { rootOwed: true } : {}),
  };
}

/**
 * A context for a job made without one (a caller that traces nothing, a replaced job older than
 * the column): a new trace, not sampled, so every job stores one and its attempts share a trace id.
 */
export function untracedContext(): TraceContext {
  // 24 bytes at a time from a pooled buffer: a randomBytes call per job was most of the client's
  // time in a batch insert of untraced jobs (docs/performance.md).
  if (offset + 24 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += 24;
  const traceId = pool.toString('hex', at, at + 16);
  const spanId = pool.toString('hex', at + 16, at + 24);
  // All zeros is an invalid id (W3C): 2^-64 at worst, but never store one.
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(spanId)) return untracedContext();
  return { traceId, spanId, sampled: false };
}

const pool = Buffer.alloc(24 * 512);
let offset = pool.length;
const ALL_ZEROS = /^0+$/;
