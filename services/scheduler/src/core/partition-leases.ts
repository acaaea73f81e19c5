import type { SchedulerMetrics } from '../metrics.ts';
import type { HeldLease, PartitionLeaseStore } from '../ports.ts';

// Which partitions this replica materialises (docs/leases.md). Each pass renews what it holds
// (every TTL/3), counts live replicas, and moves toward ceil(P / replicas) leases: releasing the
// excess so a newcomer gets its share, taking free or expired leases when short. A lease the
// store no longer confirms is dropped at once, and the tick's own in-transaction check
// (check-partition-leases.sql) fences every write, so a replica that lost a lease writes nothing under it.
//
// The pace is monotonic time only; expiry itself is decided by the database clock.
export class PartitionLeaseKeeper {
  readonly holder: string;
  readonly #store: PartitionLeaseStore;
  readonly #metrics: SchedulerMetrics;
  readonly #partitions: number;
  readonly #ttlMs: number;
  readonly #monotonicNow: () => number;
  readonly #held = new Map<number, string>();
  #lastRenewAt = Number.NEGATIVE_INFINITY;
  /** Monotonic time at which the last successful renewal started: leases are surely ours until + TTL. */
  #confirmedAt: number;
  #passes = 0;

  constructor(deps: {
    store: PartitionLeaseStore;
    metrics: SchedulerMetrics;
    holder: string;
    partitions: number;
    ttlMs: number;
    monotonicNow?: () => number;
  }) {
    this.#store = deps.store;
    this.#metrics = deps.metrics;
    this.holder = deps.holder;
    this.#partitions = deps.partitions;
    this.#ttlMs = deps.ttlMs;
    this.#monotonicNow = deps.monotonicNow ?? (() => performance.now());
    this.#confirmedAt = this.#monotonicNow();
  }

  held(): HeldLease[] {
    return [...this.#held].map(([partition, token]) => ({ partition, token }));
  }

  /** The tick found these leases gone (expired or taken over): stop materialising them at once. */
  lost(partitions: number[]): void {
    let n = 0;
    for (const p of partitions) if (this.#held.delete(p)) n += 1;
    if (n > 0) this.#metrics.leaseRenewFailures.inc(n);
    this.#metrics.partitionsHeld.set(this.#held.size);
  }

  async start(): Promise<void> {
    await this.#store.ensure(this.#partitions);
    await this.runOnce();
  }

  async runOnce(): Promise<boolean> {
    const started = this.#monotonicNow();
    if (started - this.#lastRenewAt >= this.#ttlMs / 3) {
      await this.#store.heartbeat(this.holder, this.#ttlMs);
      const before = this.held();
      const kept = await this.#store.renew(this.holder, before, this.#ttlMs);
      this.#held.clear();
      for (const h of kept) this.#held.set(h.partition, h.token);
      if (kept.length < before.length) this.#metrics.leaseRenewFailures.inc(before.length - kept.length);
      this.#lastRenewAt = started;
      this.#confirmedAt = started;
      if (++this.#passes % 500 === 0) await this.#store.forgetDeadMembers();
    }
    // Counted every pass (a cheap read), so a replica joining or leaving is seen within a pass.
    const target = Math.ceil(this.#partitions / (await this.#store.members()));
    if (this.#held.size > target) {
      const excess = this.held()
        .sort((a, b) => b.partition - a.partition)
        .slice(0, this.#held.size - target);
      // Forget them first: the tick must not start a batch under a lease being given away.
      for (const h of excess) this.#held.delete(h.partition);
      await this.#store.release(this.holder, excess);
    } else if (this.#held.size < target) {
      const got = await this.#store.acquire(
        this.holder,
        target - this.#held.size,
        this.#partitions,
        this.#ttlMs,
      );
      for (const h of got) this.#held.set(h.partition, h.token);
    }
    this.#metrics.partitionsHeld.set(this.#held.size);
    return false;
  }

  /**
   * True once no renewal has succeeded for a whole TTL: the leases may belong to others by now,
   * so they are dropped, and the caller exits (invariant 6).
   */
  expired(): boolean {
    if (this.#monotonicNow() - this.#confirmedAt <= this.#ttlMs) return false;
    if (this.#held.size > 0) this.lost([...this.#held.keys()]);
    return true;
  }

  /** Calls `onExpired` (once) when a whole TTL passes without a renewal; returns a stop function. */
  watch(onExpired: () => void, everyMs = Math.max(50, Math.floor(this.#ttlMs / 10))): () => void {
    const timer = setInterval(() => {
      if (this.expired()) {
        clearInterval(timer);
        onExpired();
      }
    }, everyMs);
    return () => clearInterval(timer);
  }

  /** On shutdown: give every lease back and leave the group, so others take over at once. */
  async stop(): Promise<void> {
    const held = this.held();
    this.#held.clear();
    this.#metrics.partitionsHeld.set(0);
    await this.#store.release(this.holder, held);
    await this.#store.leave(this.holder);
  }
}
