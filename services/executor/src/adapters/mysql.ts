import {
  type ClaimCursor,
  type FollowUpReport,
  type Lane,
  openSecret,
  type SecretsKeyring,
} from '@dsched/domain';
import { cancelRequestedClaims, renewClaimLeases } from '@dsched/mysql/jobs/claim-leases';
import { claimJobs } from '@dsched/mysql/jobs/claims';
import { tagDueJobs } from '@dsched/mysql/jobs/fair-tags';
import { recordOutcomes } from '@dsched/mysql/jobs/outcomes';
import type { Pool } from '@dsched/mysql/pool';
import { attachNodeInputs, type NodeInputsOptions } from '@dsched/mysql/workflows/node-inputs';
import type { CancelWatcher, JobClaimer, LeaseRenewer, OutcomeWriter } from '../ports.ts';

/** The lanes shared by weight between tenants; the critical lane stays in due order (critical before fairness). */
export const FAIR_LANES: readonly Lane[] = ['default', 'long'];

/** How long a lane keeps resuming its claims after its cursor before it reads from the head again. */
export const CLAIM_CURSOR_MAX_AGE_MS = 1000;

// A lane whose claim came back full resumes its next claim after the last job it locked, instead
// of walking the already-claimed (delete-marked, not yet purged) entries at the head of the due
// range again (packages/mysql/src/jobs/claim-select-after.sql). A short claim, or a cursor older
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
     * Lanes claimed in fair order: each claim first tags the lane's due jobs (tagDueJobs: skipped
     * while another executor is tagging it), then claims by priority and start tag.
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
  return async (lane, limit) => {
    const held = cursors.get(lane);
    const now = monotonicMs();
    const resume = held && now - held.since < CLAIM_CURSOR_MAX_AGE_MS ? held : undefined;
    const fair = fairLanes.includes(lane);
    // A few batches' worth: the jobs that became due since the last claim, tagged before it.
    if (fair) await tagDueJobs(pool, { lane, limit: Math.max(limit * 4, 500), leadMs: leadMs[lane] ?? 0 });
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
    if (result.cursor && result.locked === limit) {
      cursors.set(lane, { cursor: result.cursor, since: resume?.since ?? now });
    } else {
      cursors.delete(lane);
    }
    return result;
  };
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
