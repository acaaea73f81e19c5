// Tasks hash into a fixed number of partitions; scheduler replicas hold partitions by lease.
// FNV-1a over the id's text: stable across processes and languages, cheap, well spread.
export const DEFAULT_PARTITIONS = 64;

export function partitionOf(id: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

/** A partition lease as a scheduler replica holds it; the token fences every write made under it. */
export interface HeldLease {
  partition: number;
  /** The fencing token (BIGINT, as a string). */
  token: string;
}

/** Which partitions a batch may write: leased ones (fenced by token, checked in its transaction), or all (test-only). */
export type PartitionScope = { holder: string; held: HeldLease[] } | { unleased: number[] };
