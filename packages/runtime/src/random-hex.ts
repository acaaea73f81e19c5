import { randomFillSync } from 'node:crypto';

// Ids from a pool of random bytes refilled 4 KiB at a time: one fill serves about 170 trace
// contexts, so a job born costs a slice and a hex conversion, not a call into the random source.
const pool = Buffer.alloc(4096);
let offset = pool.length;

export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  // All zeros is an invalid id (W3C); 2^-64 at worst, but never emit one.
  return /^0+$/.test(hex) ? randomHex(bytes) : hex;
}
