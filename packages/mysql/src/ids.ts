import { formatUuid } from '@dsched/domain';

export { uuidFromHex } from '@dsched/domain';

// Ids travel as UUID strings in the domain and as BINARY(16) in MySQL.
export function idToBin(id: string): Buffer {
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

export function binToId(bin: Buffer | Uint8Array): string {
  return formatUuid(bin);
}

export function maybeBinToId(bin: Buffer | Uint8Array | null): string | null {
  return bin === null ? null : binToId(bin);
}
