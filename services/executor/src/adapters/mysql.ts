import {
  type ClaimCursor,
  type ClaimResult,
  type FollowUpReport,
  type Lane,
  openSecret,
  type SecretsKeyring,
} from '@dsched/domain';
import {
  cancelRequestedClaims,
  claimableJobsWaiting,
  claimJobs,
  renewClaimLeases,
} from '@dsched/mysql/jobs/claim';
import { type TagResult, tagDueJobs } from '@dsched/mysql/jobs/fair-share';
import { recordOutcomes } from '@dsched/mysql/jobs/outcome';
import type { Pool } from '@dsched/mysql/pool';
import {
  attachNodeInputs,
  type MapOptions,
  type NodeInputsOptions,
  wakeDueNodes,
} from '@dsched/mysql/workflows';
import type { CancelWatcher, JobClaimer, LeaseRenewer, NodeWaker, OutcomeWriter } from '../ports.ts';

/** The lanes shared by weight between tenants; the critical lane stays in due order (critical before fairness). */
export const FAIR_LANES: readonly Lane[] = ['default', 'long'];

const NOTHING_CLAIMED: ClaimResult = {
  jobs: [],
  locked: 0,
  cursor: null,
  deferred: 0,
  cancelled: 0,
  flowDeferred: 0,
};

/** While a fair lane's claims come back full and its due jobs are all tagged, how often it tags. */
export const FAIR_TAG_INTERVAL_MS = 100;

/** How long a lane keeps resuming its claims after its cursor before it reads from the head again. */
export const CLAIM_CURSOR_MAX_AGE_MS = 1000;

// A lane whose claim came back full resumes its next claim after the last job it locked, instead
// of walking the already-claimed (delete-marked, not yet purged) entries at the head of the due
// range again (packages/mysql/src/jobs/claim/claim-select-after.sql). A short claim, or a cursor older
// than CLAIM_CURSOR_MAX_AGE_MS, sends it back to the head, so a job that became due behind the
// cursor waits at most that long.
export function mysqlJobClaimer(
  pool: Pool,
  options: {
    owner: string;
    leaseSeconds: number;
    deferMs: number;
    /** Per lane: how long before they are due its jobs may be claimed (held until then). */
    leadMs?: Partial<Record<Lane, number>>;
    /**
     * Lanes claimed in fair order: a claim first tags the lane's due jobs (tagDueJobs: skipped
     * while another executor is tagging it; paced by FairTagPacer), then claims by priority and
     * start tag.
     */
    fairLanes?: readonly Lane[];
    /** Opens the tenants' signing secrets, stored sealed (plaintext rows from before 0046 pass). */
    keyring: SecretsKeyring;
    /** How node jobs that ask for their parents' outputs get them (node-inputs.ts). */
    nodeInputs: NodeInputsOptions;
    monotonicMs?: () => number;
  },
): JobClaimer {
  const {
    monotonicMs = () => performance.now(),
    leadMs = {},
    fairLanes = [],
    keyring,
    nodeInputs,
    ...claimOptions
  } = options;
  const open = signingSecretOpener(keyring);
  const cursors = new Map<Lane, { cursor: ClaimCursor; since: number }>();
  const pacer = new FairTagPacer(FAIR_TAG_INTERVAL_MS);
  // Lanes whose last claim locked something. Any other lane (idle, or just started) asks first
  // whether anything is claimable, one plain read, so an idle lane's polls cost a statement each,
  // not one or two transactions (claim-probe.sql); a lane with work claims at once.
  const busy = new Set<Lane>();
  return async (lane, limit) => {
    const fair = fairLanes.includes(lane);
    if (!busy.has(lane) && !(await claimableJobsWaiting(pool, lane, leadMs[lane] ?? 0))) {
      if (fair) pacer.claimed(lane, false); // as an empty claim: the next one tags first
      return NOTHING_CLAIMED;
    }
    const held = cursors.get(lane);
    const now = monotonicMs();
    const resume = held && now - held.since < CLAIM_CURSOR_MAX_AGE_MS ? held : undefined;
    // A few batches' worth: the jobs that became due since the last claim, tagged before it.
    if (fair && pacer.due(lane, now)) {
      const tagLimit = Math.max(limit * 4, 500);
      const tagged = await tagDueJobs(pool, { lane, limit: tagLimit, leadMs: leadMs[lane] ?? 0 });
      pacer.tagged(lane, now, tagged, tagLimit);
    }
    const result = await claimJobs(pool, {
      lane,
      limit,
      ...claimOptions,
      leadMs: leadMs[lane] ?? 0,
      after: resume?.cursor ?? null,
      order: fair ? 'fair' : 'due',
    });
    for (const job of result.jobs) job.signingSecret = open(job.tenantId, job.signingSecret);
    await attachNodeInputs(pool, result.jobs, nodeInputs);
    if (fair) pacer.claimed(lane, result.locked === limit);
    if (result.locked > 0) busy.add(lane);
    else busy.delete(lane);
    if (result.cursor && result.locked === limit) {
      cursors.set(lane, { cursor: result.cursor, since: resume?.since ?? now });
    } else {
      cursors.delete(lane);
    }
    return result;
  };
}

/**
 * When a fair lane's claim tags first. A tagging pass is a transaction of its own (lock the lane's
 * clock, read its untagged due jobs, ...), and while a lane drains a backlog whose due jobs are
 * all tagged, a pass before every claim finds nothing (in `pnpm bench executor`, most passes;
 * docs/performance.md has what that cost). So a claim skips the pass only when all
 * three hold: this lane's last pass left nothing to tag (it tagged fewer than it could, or another
 * executor held the clock and was tagging), the lane's last claim came back full (it has tagged
 * work queued, so skipping cannot leave it idle), and the last pass is under `intervalMs` old. A
 * job that becomes due while its lane drains is therefore tagged, and can be claimed, at most
 * `intervalMs` later than with a pass per claim; during a flood whose due jobs are not all tagged
 * yet, and whenever a claim comes back short (idle polls included), every claim still tags first.
 */
export class FairTagPacer {
  readonly #intervalMs: number;
  readonly #lanes = new Map<Lane, { taggedAt: number; drained: boolean; full: boolean }>();

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  /** Whether a claim of the lane at `now` (monotonic ms) should tag first. */
  due(lane: Lane, now: number): boolean {
    const s = this.#lanes.get(lane);
    return !s?.drained || !s.full || now - s.taggedAt >= this.#intervalMs;
  }

  /** A pass ran at `now` and returned `result`; it could tag up to `limit`. */
  tagged(lane: Lane, now: number, result: TagResult, limit: number): void {
    const drained = result.busy || result.tagged < limit;
    this.#lanes.set(lane, { taggedAt: now, drained, full: this.#lanes.get(lane)?.full ?? false });
  }

  /** The lane's claim came back with as many jobs as it asked for (`full`), or fewer. */
  claimed(lane: Lane, full: boolean): void {
    const s = this.#lanes.get(lane);
    if (s) s.full = full;
  }
}

/** The size past which the opened-secret cache starts over: a few tenants per claim batch is the norm. */
const OPENED_SECRETS_CAP = 10_000;

/**
 * Opens stored signing secrets, remembering the last ones: a batch of a hundred claims of one
 * tenant decrypts its secret once. Keyed by the stored envelope, so a reseal is picked up.
 */
function signingSecretOpener(keyring: SecretsKeyring): (tenantId: string, stored: string) => string {
  const opened = new Map<string, string>();
  return (tenantId, stored) => {
    const key = `${tenantId}\n${stored}`;
    let secret = opened.get(key);
    if (secret === undefined) {
      if (opened.size >= OPENED_SECRETS_CAP) opened.clear();
      secret = openSecret(keyring, tenantId, stored);
      opened.set(key, secret);
    }
    return secret;
  };
}

/** `onFollowUps` hears, once each batch commits, how many callback jobs and task pauses it made. */
export function mysqlOutcomeWriter(
  pool: Pool,
  onFollowUps?: (report: FollowUpReport) => void,
): OutcomeWriter {
  return (writes) => recordOutcomes(pool, writes, onFollowUps);
}

export function mysqlLeaseRenewer(
  pool: Pool,
  options: { owner: string; leaseSeconds: number },
): LeaseRenewer {
  return (held) => renewClaimLeases(pool, { ...options, held });
}

export function mysqlCancelWatcher(pool: Pool, options: { owner: string }): CancelWatcher {
  return (held) => cancelRequestedClaims(pool, { owner: options.owner, held });
}

/** Sleep and wait nodes' ends, and map nodes' steps (their output cap and items' URL in `map`). */
export function mysqlNodeWaker(pool: Pool, map: MapOptions): NodeWaker {
  return (limit) => wakeDueNodes(pool, limit, map);
}
