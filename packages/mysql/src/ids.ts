import { formatUuid } from '@dsched/domain';

export { uuidFromHex } from '@dsched/domain';

// Ids travel as UUID strings in the domain and as BINARY(16) in MySQL.

/** Hex digit values by char code (-1: not a hex digit). */
const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}
/** Where each byte's two digits start in "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx". */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * The 16 bytes of a UUID string. Read digit by digit into a pooled buffer: the outcome writes
 * convert every job's id, and a strip-the-dashes-then-parse costs a string and a copy each time.
 * Anything not of the canonical form takes the old path, with its old result.
 */
export function idToBin(id: string): Buffer {
  if (id.length === 36) {
    const out = Buffer.allocUnsafe(16);
    let bad = 0;
    for (let i = 0; i < 16; i++) {
      const at = BYTE_AT[i]!;
      const hi = HEX[id.charCodeAt(at)] ?? -1;
      const lo = HEX[id.charCodeAt(at + 1)] ?? -1;
      bad |= hi | lo;
      out[i] = (hi << 4) | lo;
    }
    if (bad >= 0 && id[8] === '-' && id[13] === '-' && id[18] === '-' && id[23] === '-') return out;
  }
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

export function binToId(bin: Buffer | Uint8Array): string {
  return formatUuid(bin);
}

export function maybeBinToId(bin: Buffer | Uint8Array | null): string | null {
  return bin === null ? null : binToId(bin);
}
