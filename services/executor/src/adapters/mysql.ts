import {
  type ClaimCursor,
  type ClaimResult,
  DEFAULT_PARTITIONS,
  type FollowUpReport,
  type Lane,
  openSecret,
  type PartitionGroup,
  partitionGroups,
  type SecretsKeyring,
} from '@dsched/domain';
import {
  ClaimTenants,
  cancelRequestedClaims,
  claimableJobsWaiting,
  claimJobs,
  renewClaimLeases,
} from '@dsched/mysql/jobs/claim';
import { type TagResult, tagDueJobs } from '@dsched/mysql/jobs/fair-share';
import { recordOutcomes } from '@dsched/mysql/jobs/outcome';
import type { Pool } from '@dsched/mysql/pool';
import type { ShardMap } from '@dsched/mysql/shards';
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

/** One primary's shard map: one group of the default partition count (tests; main passes its own). */
export const ONE_PRIMARY: Pick<ShardMap, 'groups' | 'refresh'> = (() => {
  const groups = partitionGroups(DEFAULT_PARTITIONS, []);
  return { groups: () => groups, refresh: async () => groups };
})();

/** How long the executor keeps a tenant's secret, limit and weight read by a claim (ClaimTenants). */
export const TENANT_CACHE_MS = 5000;

// Each claim serves one group of partitions, one shard's (docs/sharding.md): a lane takes the
// groups in turn, a full batch from each, starting after the group it claimed from last, and passes
// over a group with nothing claimable (its probe, one plain read) to the next within the same call,
// so an idle shard costs a lane a read, not a poll interval. On one primary there is one group:
// the claims are those of before. Round robin of full batches rather than the batch split over the
// groups: a claim is one transaction whatever its size, so splitting would cost each round one
// transaction per shard for the same jobs (and send a shard with no work its share of a batch).
//
// A lane whose claim came back full resumes its next claim of that group after the last job it
// locked, instead of walking the already-claimed (delete-marked, not yet purged) entries at the head
// of the due range again (packages/mysql/src/jobs/claim/claim-select-after.sql). A short claim, or a
// cursor older than CLAIM_CURSOR_MAX_AGE_MS, sends it back to the head, so a job that became due
// behind the cursor waits at most that long.
export function mysqlJobClaimer(
  pool: Pool,
  options: {
    /** The groups of partitions to claim from, one per shard (default ONE_PRIMARY). */
    shards?: Pick<ShardMap, 'groups' | 'refresh'>;
    /** Where the claims read their jobs' tenants (default: kept TENANT_CACHE_MS). */
    tenants?: ClaimTenants;
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
    shards = ONE_PRIMARY,
    tenants = new ClaimTenants({ ttlMs: TENANT_CACHE_MS, monotonicMs }),
    ...claimOptions
  } = options;
  const open = signingSecretOpener(keyring);
  // Per lane and group (`lane shard`): a cursor is a position in one group's due range.
  const cursors = new Map<string, { cursor: ClaimCursor; since: number }>();
  const pacer = new FairTagPacer(FAIR_TAG_INTERVAL_MS);
  // Lanes and groups whose last claim locked something. Any other (idle, or just started) asks
  // first whether anything is claimable, one plain read, so an idle lane's polls cost a statement
  // per group, not one or two transactions (claim-probe.sql); a group with work is claimed at once.
  const busy = new Set<string>();
  // Per lane: the group to start from at its next claim.
  const next = new Map<Lane, number>();
  /** The group this claim serves: the first, from the lane's turn on, that is busy or has work. */
  /** A claim of `group`'s due jobs, the lane's tagging pass already run or skipped. */
  const claimFrom = async (lane: Lane, limit: number, group: PartitionGroup, key: string) => {
    const fair = fairLanes.includes(lane);
    const held = cursors.get(key);
    const now = monotonicMs();
    const resume = held && now - held.since < CLAIM_CURSOR_MAX_AGE_MS ? held : undefined;
    const result = await claimJobs(pool, {
      lane,
      limit,
      ...claimOptions,
      partitions: group.partitions,
      tenants,
      leadMs: leadMs[lane] ?? 0,
      after: resume?.cursor ?? null,
      order: fair ? 'fair' : 'due',
    }).catch((err: unknown) => {
      // A group a moment old (a resharding's cut-over) reaches a second shard and fails whole:
      // read the shards again for the next claim (docs/sharding.md).
      shards.refresh().catch(() => undefined);
      throw err;
    });
    for (const job of result.jobs) job.signingSecret = open(job.tenantId, job.signingSecret);
    await attachNodeInputs(pool, result.jobs, nodeInputs);
    if (fair) pacer.claimed(key, result.locked === limit);
    if (result.locked > 0) busy.add(key);
    else busy.delete(key);
    if (result.cursor && result.locked === limit) {
      cursors.set(key, { cursor: result.cursor, since: resume?.since ?? now });
    } else {
      cursors.delete(key);
    }
    return result;
  };
  return async (lane, limit) => {
    const fair = fairLanes.includes(lane);
    const groups = shards.groups();
    const start = (next.get(lane) ?? 0) % groups.length;
    let tried = false;
    for (let i = 0; i < groups.length; i++) {
      const at = (start + i) % groups.length;
      const group = groups[at]!;
      const key = `${lane} ${group.shard}`;
      if (
        !busy.has(key) &&
        !(await claimableJobsWaiting(pool, lane, leadMs[lane] ?? 0, null, group.partitions))
      )
        continue;
      // A few batches' worth: the jobs of this group that became due since its last claim, tagged
      // before it, with the shard's own clocks (docs/sharding.md "Fair share per shard").
      const now = monotonicMs();
      if (fair && pacer.due(key, now)) {
        const tagLimit = Math.max(limit * 4, 500);
        const result = await tagDueJobs(pool, {
          lane,
          partitions: group.partitions,
          tenants,
          limit: tagLimit,
          leadMs: leadMs[lane] ?? 0,
        });
        pacer.tagged(key, now, result, tagLimit);
      }
      tried = true;
      const result = await claimFrom(lane, limit, group, key);
      // The next claim starts at the next group; a group that had nothing after all passes the
      // turn on within this call.
      next.set(lane, at + 1);
      if (result.locked > 0) return result;
    }
    // As an empty claim: the next one of each group tags first.
    if (fair && !tried) for (const group of groups) pacer.claimed(`${lane} ${group.shard}`, false);
    return NOTHING_CLAIMED;
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
  /** By lane and group (`lane shard`): each shard's lane is tagged by its own passes. */
  readonly #lanes = new Map<string, { taggedAt: number; drained: boolean; full: boolean }>();

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  /** Whether a claim of the lane at `now` (monotonic ms) should tag first. */
  due(lane: string, now: number): boolean {
    const s = this.#lanes.get(lane);
    return !s?.drained || !s.full || now - s.taggedAt >= this.#intervalMs;
  }

  /** A pass ran at `now` and returned `result`; it could tag up to `limit`. */
  tagged(lane: string, now: number, result: TagResult, limit: number): void {
    const drained = result.busy || result.tagged < limit;
    this.#lanes.set(lane, { taggedAt: now, drained, full: this.#lanes.get(lane)?.full ?? false });
  }

  /** The lane's claim came back with as many jobs as it asked for (`full`), or fewer. */
  claimed(lane: string, full: boolean): void {
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

/** Renews the claims a statement per group (shard) they are in. */
export function mysqlLeaseRenewer(
  pool: Pool,
  options: { owner: string; leaseSeconds: number; shards?: Pick<ShardMap, 'groups'> },
): LeaseRenewer {
  const { shards = ONE_PRIMARY, ...rest } = options;
  return (held) => renewClaimLeases(pool, { ...rest, held, groups: shards.groups() });
}

export function mysqlCancelWatcher(
  pool: Pool,
  options: { owner: string; shards?: Pick<ShardMap, 'groups'> },
): CancelWatcher {
  const { owner, shards = ONE_PRIMARY } = options;
  return (held) => cancelRequestedClaims(pool, { owner, held, groups: shards.groups() });
}

/**
 * Sleep and wait nodes' ends, and map nodes' steps (their output cap and items' URL in `map`): a
 * pass per group of partitions (one shard on Vitess, docs/sharding.md), each keyed by its group.
 */
export function mysqlNodeWaker(
  pool: Pool,
  map: MapOptions,
  shards: Pick<ShardMap, 'groups'> = ONE_PRIMARY,
): NodeWaker {
  return async (limit) => {
    const report = { woken: { sleep: 0, wait: 0, map: 0 }, full: false };
    for (const { partitions } of shards.groups()) {
      const pass = await wakeDueNodes(pool, limit, map, partitions);
      report.woken.sleep += pass.woken.sleep;
      report.woken.wait += pass.woken.wait;
      report.woken.map += pass.woken.map;
      if (pass.full) report.full = true;
    }
    return report;
  };
}
