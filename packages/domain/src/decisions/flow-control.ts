// Flow control per key: which of a claim's candidates may start now, and when the others may try
// again. The claim holds the key's row while it decides, so the decision is the fleet's
// (docs/flow-control.md). Pure: the claim gives it the key's state as read under that lock.

/**
 * A key's calls are started at least RATE_SPACING_FACTOR / ratePerSecond seconds apart (at claim
 * time), so that delivery jitter of up to (factor - 1) seconds cannot put more than ratePerSecond
 * calls into any one-second window at the target.
 */
export const RATE_SPACING_FACTOR = 1.1;

export interface FlowCandidate {
  id: string;
  /** The tenant-scoped key (tenant and key together). */
  key: string;
  parallelism: number | null;
  ratePerSecond: number | null;
}

export interface FlowKeyState {
  /** This claim holds the key's row; false: another claimer is deciding for the key right now. */
  locked: boolean;
  /** Calls of the key in flight (claimed, not finished). */
  running: number;
  /** Earliest start of the key's next call (ms since the epoch); null: never limited yet. */
  tatMs: number | null;
}

export interface FlowDecision {
  admitted: Set<string>;
  /** Job id → when it may be tried again (ms since the epoch). */
  deferredUntil: Map<string, number>;
  /** Key → its new earliest next start, for the keys whose rate state moved. */
  tats: Map<string, number>;
}

export function rateSpacingMs(ratePerSecond: number): number {
  return Math.ceil((RATE_SPACING_FACTOR * 1000) / ratePerSecond);
}

/**
 * Admits candidates in claim order while their key has room: fewer than `parallelism` in flight
 * (counting the ones admitted here) and, for a rate, its earliest next start reached. A key held
 * by another claimer admits nothing (its jobs retry after `retryMs`); a rate-limited job is
 * deferred to its key's next start, a parallelism-limited one by `retryMs`.
 */
export function admitFlowControlled(
  candidates: readonly FlowCandidate[],
  keys: ReadonlyMap<string, FlowKeyState>,
  nowMs: number,
  retryMs: number,
): FlowDecision {
  const admitted = new Set<string>();
  const deferredUntil = new Map<string, number>();
  const tats = new Map<string, number>();
  const taken = new Map<string, number>();
  for (const c of candidates) {
    const state = keys.get(c.key);
    if (!state?.locked) {
      deferredUntil.set(c.id, nowMs + retryMs);
      continue;
    }
    const inFlight = state.running + (taken.get(c.key) ?? 0);
    if (c.parallelism !== null && inFlight >= c.parallelism) {
      deferredUntil.set(c.id, nowMs + retryMs);
      continue;
    }
    if (c.ratePerSecond !== null) {
      const tat = tats.get(c.key) ?? state.tatMs ?? nowMs;
      if (tat > nowMs) {
        deferredUntil.set(c.id, tat);
        continue;
      }
      tats.set(c.key, Math.max(tat, nowMs) + rateSpacingMs(c.ratePerSecond));
    }
    admitted.add(c.id);
    taken.set(c.key, (taken.get(c.key) ?? 0) + 1);
  }
  return { admitted, deferredUntil, tats };
}
