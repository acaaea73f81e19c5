import { randomFillSync } from 'node:crypto';
import { partitionInId } from './partition.ts';

// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then 74 random bits. Time-ordered, so inserts land
// at the right-hand end of the primary key, and globally unique without coordination (invariant 8).
// Within one process, ids made in the same millisecond stay ordered through a 12-bit counter
// in rand_a, seeded randomly each millisecond.
let lastMs = 0;
let counter = 0;

// Random bytes are drawn from a pooled buffer refilled 4 KiB at a time: one CSPRNG call per 200
// ids instead of two per id (the scheduler makes thousands of ids per tick).
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

function randomBytes(n: number): Buffer {
  if (poolOffset + n > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + n));
  poolOffset += n;
  return out;
}

/**
 * A new UUIDv7. `partition`, when given, is written into the last two bytes (random otherwise), so
 * the id carries the partition of the rows it belongs with: a task's jobs, a run's node jobs, a
 * job's callbacks (partitionOfId, docs/sharding.md). 58 random bits remain beside the millisecond.
 */
export function newId(nowMs: number = Date.now(), partition?: number): string {
  let ms = nowMs;
  if (ms <= lastMs) {
    ms = lastMs;
    counter += 1;
    if (counter > 0xfff) {
      ms += 1;
      counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
    }
  } else {
    counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  if (partition !== undefined) bytes.writeUInt16BE(partition, 14);
  return formatUuid(bytes);
}

/**
 * A new id in the partition `beside` carries (its last two bytes, copied as they are): a callback
 * job's id beside the job it reports, which shares its partition (docs/sharding.md).
 */
export function newIdBeside(beside: string, nowMs: number = Date.now()): string {
  return newId(nowMs, partitionInId(beside));
}

export function formatUuid(bytes: Uint8Array): string {
  // A view, not a copy: the executor formats several ids per job.
  const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return uuidFromHex(view.toString('hex'));
}

/** An id from the 32 hex digits of its bytes (a caller that already has them saves a conversion). */
export function uuidFromHex(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isId(value: string): boolean {
  return UUID_RE.test(value);
}
