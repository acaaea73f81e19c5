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

/**
 * The partition a job or workflow run id carries: its last two bytes, mod `partitions`. Ids of jobs
 * and runs are made with their owner's partition there (newId), so a statement that starts from an
 * id alone names the row's partition, and on Vitess its shard (docs/sharding.md). A row stored
 * before the shard key (migration 0061) has its task's or run's partition, which its id may not say.
 */
export function partitionOfId(id: string, partitions: number): number {
  return partitionInId(id) % partitions;
}

/**
 * The partition newId wrote into an id (its last two bytes, not reduced): for every id made in its
 * partition, partitionOfId(id, P) for any P. A path that knows no P (job-api) keys by it; an id
 * stored before the shard key names a partition its row need not have, and such a lookup misses.
 */
export function partitionInId(id: string): number {
  return Number.parseInt(id.slice(32, 36), 16);
}

/** A partition lease as a scheduler replica holds it; the token fences every write made under it. */
export interface HeldLease {
  partition: number;
  /** The fencing token (BIGINT, as a string). */
  token: string;
}

/** Which partitions a batch may write: leased ones (fenced by token, checked in its transaction), or all (test-only). */
export type PartitionScope = { holder: string; held: HeldLease[] } | { unleased: number[] };
