// Removes each fence of the job path, one at a time, runs the test files that guard it, and
// restores it: the table in docs/fences.md is this script's output. A fence no test misses is
// either redundant by design (an earlier locking read in the same transaction decides it; the
// table says which) or a missing test.
//
//   node scripts/fence-mutations.ts                 # every mutation (tens of minutes)
//   node scripts/fence-mutations.ts outcome-apply slots   # those whose id contains a word
//   node scripts/fence-mutations.ts --check         # only that every edit still applies
//
// It edits the working tree and puts every file back, also on Ctrl-C; run it in a checkout with
// no uncommitted change to the files it names (it refuses otherwise).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Edit {
  file: string;
  find: string;
  replace: string;
}

interface Mutation {
  id: string;
  /** The condition removed, as the table shows it. */
  condition: string;
  edits: Edit[];
  tests: string[];
  /** Why no test can miss it, when an earlier locking read decides it. */
  redundant?: string;
}

const SQL = 'packages/mysql/src';
const MYSQL = ['packages/mysql/test'];
const EXECUTOR = [...MYSQL, 'services/executor/test', 'test/e2e/executor-outcomes.test.ts'];
const RECONCILER = [...MYSQL, 'services/reconciler/test'];
const JOB_API = ['services/job-api/test', 'test/e2e/executor-cancel-async.test.ts'];
const SCHEDULER = [...MYSQL, 'services/scheduler/test', 'services/task-api/test/task-lifecycle.test.ts'];
const SLOTS = [...MYSQL, 'test/e2e/executor-tenant-limit.test.ts'];
const WORKFLOWS = [
  'packages/mysql/test/workflow-walk.test.ts',
  'packages/mysql/test/workflow-wide-parents.test.ts',
  'packages/mysql/test/workflows.test.ts',
  'packages/mysql/test/workflow-sweep.test.ts',
  'services/reconciler/test',
  'test/e2e/workflows.test.ts',
];
const FAIR = [
  'packages/mysql/test/fair-claim.test.ts',
  'packages/mysql/test/flow-control.test.ts',
  'test/e2e/fair-share.test.ts',
];
const FOLLOW_UPS = [
  'packages/mysql/test/follow-ups.test.ts',
  'test/e2e/callbacks.test.ts',
  'test/e2e/pause-on-failure.test.ts',
];

/** One edit of a statement file: `find` must occur exactly once. */
const sql = (file: string, find: string, replace = ''): Edit => ({ file: `${SQL}/${file}`, find, replace });
/** A condition with a placeholder, made always true so the parameters still line up. */
const always = (file: string, cond: string): Edit => sql(file, cond, `(${cond} OR 1)`);

const LOCKED_BY = (read: string) =>
  `${read} locked these rows under the same condition in the same transaction`;

const MUTATIONS: Mutation[] = [
  // The executor's outcomes.
  {
    id: 'outcome-apply.attempt',
    condition: 'JOIN … `j.attempt = v.attempt`',
    edits: [sql('jobs/outcome/outcome-apply.sql', ' AND j.attempt = v.attempt')],
    tests: EXECUTOR,
  },
  {
    id: 'outcome-apply.state',
    condition: "`j.state = 'running'`",
    edits: [sql('jobs/outcome/outcome-apply.sql', "WHERE j.state = 'running'", 'WHERE 1')],
    tests: [...EXECUTOR, ...JOB_API],
  },
  {
    id: 'outcome-finish.attempt',
    condition: '`(id, attempt) IN (?)`',
    edits: [always('jobs/outcome/outcome-finish.sql', '(id, attempt) IN (?)')],
    tests: EXECUTOR,
  },
  {
    id: 'outcome-finish.state',
    condition: "`state = 'running'`",
    edits: [sql('jobs/outcome/outcome-finish.sql', " AND state = 'running'")],
    tests: [...EXECUTOR, ...JOB_API],
  },
  {
    id: 'outcome-lock.state',
    condition: "`state = 'running'`",
    edits: [sql('jobs/outcome/outcome-lock.sql', " AND state = 'running'")],
    tests: [...EXECUTOR, ...JOB_API],
  },
  {
    id: 'outcome-attempts-parked.attempt',
    condition: 'LEFT JOIN … `j.attempt = v.attempt`',
    edits: [sql('jobs/outcome/outcome-attempts-parked.sql', ' AND j.attempt = v.attempt')],
    tests: [...EXECUTOR, ...JOB_API],
    redundant:
      'a claim is lost only through a reconciler release, which closes its attempt row first (abandoned-attempts-insert.sql); the late write then meets a closed row, and ON DUPLICATE KEY keeps the first close',
  },
  // The executor's lease renewal.
  {
    id: 'lease-renew.attempt',
    condition: '`(id, attempt) IN (?)`',
    edits: [always('jobs/claim/claim-lease-renew.sql', '(id, attempt) IN (?)')],
    tests: EXECUTOR,
  },
  {
    id: 'lease-renew.state',
    condition: "`state = 'running'`",
    edits: [sql('jobs/claim/claim-lease-renew.sql', " AND state = 'running'")],
    tests: EXECUTOR,
    redundant:
      'claimed_by is set only while a job runs: claim-update.sql sets it and every statement that moves a job out of running clears it',
  },
  {
    id: 'lease-renew.claimed_by',
    condition: '`claimed_by = ?`',
    edits: [always('jobs/claim/claim-lease-renew.sql', 'claimed_by = ?')],
    tests: EXECUTOR,
  },
  {
    id: 'lease-renew.cancel',
    condition: '`cancel_requested = 0`',
    edits: [sql('jobs/claim/claim-lease-renew.sql', ' AND cancel_requested = 0')],
    tests: [...EXECUTOR, 'test/e2e/executor-cancel-async.test.ts'],
  },
  {
    id: 'lease-check.claimed_by',
    condition: '`claimed_by = ?`',
    edits: [always('jobs/claim/claim-lease-check.sql', 'claimed_by = ?')],
    tests: EXECUTOR,
  },
  {
    id: 'lease-check.state',
    condition: "`state = 'running'`",
    edits: [sql('jobs/claim/claim-lease-check.sql', " AND state = 'running'")],
    tests: EXECUTOR,
    redundant:
      'claimed_by is set only while a job runs: claim-update.sql sets it and every statement that moves a job out of running clears it',
  },
  // The claim.
  {
    id: 'claim-update.state',
    condition: "`state = 'pending'`",
    edits: [sql('jobs/claim/claim-update.sql', " AND state = 'pending'")],
    tests: EXECUTOR,
    redundant: `${LOCKED_BY('claim-select.sql (`claim_lane`, set only while pending, FOR UPDATE SKIP LOCKED)')}; claims.ts also throws when the update matches fewer rows`,
  },
  {
    id: 'claim-cancel.state',
    condition: "`state = 'pending' AND cancel_requested = 1`",
    edits: [sql('jobs/claim/claim-cancel.sql', " AND state = 'pending' AND cancel_requested = 1")],
    tests: EXECUTOR,
    redundant: `${LOCKED_BY('claim-select.sql')}; cancel_requested was read from the locked rows (claim-read.sql)`,
  },
  {
    id: 'claim-defer.state',
    condition: "`state = 'pending'`",
    edits: [sql('jobs/claim/claim-defer.sql', " AND state = 'pending'")],
    tests: SLOTS,
    redundant: LOCKED_BY('claim-select.sql'),
  },
  // The reconciler.
  {
    id: 'release-expired-select.lease',
    condition: '`lease_expires_at < NOW(3)`',
    edits: [sql('jobs/reconcile/release-expired-select.sql', ' AND lease_expires_at < NOW(3)')],
    tests: RECONCILER,
    redundant: 'release-expired-update.sql repeats it (removing both fails the test, see the pair below)',
  },
  {
    id: 'release-expired-select.state',
    condition: "`state = 'running'`",
    edits: [sql('jobs/reconcile/release-expired-select.sql', "state = 'running' AND ")],
    tests: RECONCILER,
  },
  {
    id: 'release-expired-update.attempt',
    condition: '`(id, attempt) IN (?)`',
    edits: [always('jobs/reconcile/release-expired-update.sql', '(id, attempt) IN (?)')],
    tests: RECONCILER,
    redundant: LOCKED_BY('release-expired-select.sql'),
  },
  {
    id: 'release-expired-update.state-lease',
    condition: "`state = 'running' AND lease_expires_at < NOW(3)`",
    edits: [
      sql(
        'jobs/reconcile/release-expired-update.sql',
        " AND state = 'running' AND lease_expires_at < NOW(3)",
      ),
    ],
    tests: RECONCILER,
    redundant: LOCKED_BY('release-expired-select.sql'),
  },
  {
    id: 'deadline-select.deadline',
    condition: '`deadline_at < NOW(3)`',
    edits: [sql('jobs/reconcile/deadline-select.sql', 'deadline_at < NOW(3) AND ')],
    tests: RECONCILER,
    redundant: 'deadline-update.sql repeats it (the pair below)',
  },
  {
    id: 'deadline-select.state',
    condition: "`state = 'running'`",
    edits: [sql('jobs/reconcile/deadline-select.sql', " AND state = 'running'")],
    tests: RECONCILER,
    redundant:
      'deadline_at is set only while a job is parked (every transition out of running clears it), and deadline-update.sql repeats the state',
  },
  {
    id: 'deadline-update.attempt-state-deadline',
    condition: "`(id, attempt) IN (?) AND state = 'running' AND deadline_at < NOW(3)`",
    edits: [
      always('jobs/reconcile/deadline-update.sql', '(id, attempt) IN (?)'),
      sql('jobs/reconcile/deadline-update.sql', " AND state = 'running' AND deadline_at < NOW(3)"),
    ],
    tests: RECONCILER,
    redundant: LOCKED_BY('deadline-select.sql'),
  },
  {
    id: 'owner-select.claimed_by',
    condition: '`claimed_by IN (?)`',
    edits: [always('jobs/reconcile/owner-select.sql', 'claimed_by IN (?)')],
    tests: RECONCILER,
    redundant: 'owner-update.sql repeats it (the pair below)',
  },
  {
    id: 'owner-select.parked',
    condition: '`deadline_at IS NULL`',
    edits: [sql('jobs/reconcile/owner-select.sql', ' AND deadline_at IS NULL')],
    tests: RECONCILER,
  },
  {
    id: 'owner-update.attempt-state-owner',
    condition: "`(id, attempt) IN (?) AND state = 'running' AND claimed_by IN (?)`",
    edits: [
      always('jobs/reconcile/owner-update.sql', '(id, attempt) IN (?)'),
      sql('jobs/reconcile/owner-update.sql', " AND state = 'running'"),
      always('jobs/reconcile/owner-update.sql', 'claimed_by IN (?)'),
    ],
    tests: RECONCILER,
    redundant: LOCKED_BY('owner-select.sql'),
  },
  {
    id: 'abandoned-attempts-insert.claimed',
    condition: '`claimed_by IS NOT NULL`',
    edits: [sql('jobs/reconcile/abandoned-attempts-insert.sql', ' AND claimed_by IS NOT NULL')],
    tests: RECONCILER,
    redundant:
      'a parked job (claimed_by NULL) already has its open attempt row (outcome-attempts-parked.sql), and the insert does nothing on a duplicate key',
  },
  // job-api's writes: control-lock.sql locks the row by primary key first and job-control.ts
  // compares its state and attempt; the statements' fences are a second line.
  {
    id: 'job-control.attempt-check',
    condition: 'job-control.ts: `job.attempt !== args.attempt` (heartbeat and complete)',
    edits: [
      {
        file: `${SQL}/jobs/control/job-control.ts`,
        find: "if (job.state !== 'running' || job.attempt !== args.attempt) return { kind: 'stale', job };\n    const progress",
        replace: "if (job.state !== 'running') return { kind: 'stale', job };\n    const progress",
      },
      {
        file: `${SQL}/jobs/control/job-control.ts`,
        find: "if (job.state !== 'running' || job.attempt !== args.attempt) return { kind: 'stale', job };\n    const decision",
        replace: "if (job.state !== 'running') return { kind: 'stale', job };\n    const decision",
      },
    ],
    tests: JOB_API,
  },
  {
    id: 'control-heartbeat.fence',
    condition: "`attempt = ? AND state = 'running'`",
    edits: [
      sql(
        'jobs/control/control-heartbeat.sql',
        "AND attempt = ? AND state = 'running'",
        'AND (attempt = ? OR 1)',
      ),
    ],
    tests: JOB_API,
    redundant: 'control-lock.sql (FOR UPDATE by primary key) and the state and attempt check after it',
  },
  {
    id: 'control-complete.fence',
    condition: "`attempt = ? AND state = 'running'`",
    edits: [
      sql(
        'jobs/control/control-complete.sql',
        "AND attempt = ? AND state = 'running'",
        'AND (attempt = ? OR 1)',
      ),
    ],
    tests: JOB_API,
    redundant: 'control-lock.sql (FOR UPDATE by primary key) and the state and attempt check after it',
  },
  {
    id: 'control-retry.fence',
    condition: "`attempt = ? AND state = 'running'`",
    edits: [
      sql(
        'jobs/control/control-retry.sql',
        "AND attempt = ? AND state = 'running'",
        'AND (attempt = ? OR 1)',
      ),
    ],
    tests: JOB_API,
    redundant: 'control-lock.sql (FOR UPDATE by primary key) and the state and attempt check after it',
  },
  {
    id: 'control-cancel-request.fence',
    condition: "`attempt = ? AND state = 'running'`",
    edits: [
      sql(
        'jobs/control/control-cancel-request.sql',
        "AND attempt = ? AND state = 'running'",
        'AND (attempt = ? OR 1)',
      ),
    ],
    tests: JOB_API,
    redundant: 'control-lock.sql (FOR UPDATE by primary key) and the state check after it',
  },
  {
    id: 'control-cancel-now.fence',
    condition: '`attempt = ? AND state = ?`',
    edits: [
      sql(
        'jobs/control/control-cancel-now.sql',
        'AND attempt = ? AND state = ?',
        'AND (attempt = ? OR state = ? OR 1)',
      ),
    ],
    tests: JOB_API,
    redundant: 'control-lock.sql (FOR UPDATE by primary key) and the state check after it',
  },
  // Redrive.
  {
    id: 'redrive-select.state',
    condition: "`state = 'dead'` (by ids)",
    edits: [sql('jobs/control/redrive-select.sql', " AND state = 'dead'")],
    tests: [...MYSQL, 'services/job-api/test/app.test.ts'],
  },
  {
    id: 'redrive-select-task.state',
    condition: "`state = 'dead'` (by task)",
    edits: [sql('jobs/control/redrive-select-task.sql', " AND state = 'dead'")],
    tests: [...MYSQL, 'services/job-api/test/app.test.ts'],
  },
  {
    id: 'redrive-update.state',
    condition: "`state = 'dead'`",
    edits: [sql('jobs/control/redrive-update.sql', " AND state = 'dead'")],
    tests: [...MYSQL, 'services/job-api/test/app.test.ts'],
    redundant: LOCKED_BY('redrive-select.sql or redrive-select-task.sql'),
  },
  // The archiver: its read is not locking, so the delete's fences are the only ones.
  {
    id: 'archive-delete.attempt',
    condition: '`(j.id, j.attempt) IN (?)`',
    edits: [always('jobs/archive/archive-delete.sql', '(j.id, j.attempt) IN (?)')],
    tests: [...MYSQL, 'services/archiver/test', 'test/e2e/archiver-crash.test.ts'],
  },
  {
    id: 'archive-delete.state',
    condition: "`j.state IN ('succeeded', 'cancelled', 'dead')`",
    edits: [sql('jobs/archive/archive-delete.sql', " AND j.state IN ('succeeded', 'cancelled', 'dead')")],
    tests: [...MYSQL, 'services/archiver/test', 'test/e2e/archiver-crash.test.ts'],
  },
  // Task edits.
  {
    id: 'select-unstarted-jobs.state',
    condition: "`state = 'pending' AND attempt = 0`",
    edits: [sql('tasks/select-unstarted-jobs.sql', " AND state = 'pending' AND attempt = 0")],
    tests: ['services/task-api/test/task-lifecycle.test.ts'],
    redundant: 'supersede-jobs.sql repeats it (the pair below)',
  },
  {
    id: 'supersede-jobs.state',
    condition: "`state = 'pending' AND attempt = 0`",
    edits: [sql('tasks/supersede-jobs.sql', " AND state = 'pending' AND attempt = 0")],
    tests: ['services/task-api/test/task-lifecycle.test.ts'],
    redundant: LOCKED_BY('select-unstarted-jobs.sql (FOR UPDATE)'),
  },
  // The scheduler.
  {
    id: 'check-leases.holder',
    condition: '`holder = ?`',
    edits: [always('scheduler/check-partition-leases.sql', 'holder = ?')],
    tests: SCHEDULER,
    redundant:
      'acquire-leases.sql bumps the token on every takeover, and materialise.ts keeps a partition only when the token read equals the one held',
  },
  {
    id: 'check-leases.expiry',
    condition: '`expires_at > NOW(3)`',
    edits: [sql('scheduler/check-partition-leases.sql', ' AND expires_at > NOW(3)')],
    tests: SCHEDULER,
  },
  {
    id: 'check-leases.token',
    condition: 'materialise.ts: the token read equals the token held',
    edits: [
      {
        file: `${SQL}/scheduler/materialise.ts`,
        find: 'if (tokens.get(partitionLeaseName(h.partition)) === h.token)',
        replace: 'if (tokens.has(partitionLeaseName(h.partition)))',
      },
    ],
    tests: SCHEDULER,
  },
  {
    id: 'select-due-tasks.state',
    condition: "`state = 'active'`",
    edits: [sql('scheduler/select-due-tasks.sql', "state = 'active' AND ")],
    tests: SCHEDULER,
  },
  {
    id: 'insert-jobs.ignore',
    condition: '`INSERT IGNORE` (the unique `(task_id, occurrence)`)',
    edits: [sql('jobs/insert-jobs.sql', 'INSERT IGNORE INTO jobs', 'INSERT INTO jobs')],
    tests: [...SCHEDULER, 'services/task-api/test/app.test.ts', 'services/task-api/test/audit.test.ts'],
  },
  {
    id: 'advance-tasks.state',
    condition: "`t.state = 'active'`",
    edits: [sql('scheduler/advance-tasks.sql', "t.state = 'active' AND ")],
    tests: SCHEDULER,
    redundant: LOCKED_BY('select-due-tasks.sql (FOR UPDATE SKIP LOCKED)'),
  },
  {
    id: 'advance-tasks.forward',
    condition: '`t.next_fire_at < v.next_fire_at` (only forward)',
    edits: [sql('scheduler/advance-tasks.sql', ' OR t.next_fire_at < v.next_fire_at', ' OR 1')],
    tests: SCHEDULER,
    redundant: `${LOCKED_BY('select-due-tasks.sql (FOR UPDATE SKIP LOCKED)')}; the planner only moves forward from the next_fire_at read under that lock`,
  },
  // Partition leases.
  {
    id: 'acquire-leases.free',
    condition: '`holder IS NULL OR expires_at <= NOW(3)`',
    edits: [sql('leases/acquire-leases.sql', ' AND (holder IS NULL OR expires_at <= NOW(3))')],
    tests: SCHEDULER,
  },
  {
    id: 'renew-leases.token',
    condition: '`(name, token) IN (?)`',
    edits: [always('leases/renew-leases.sql', '(name, token) IN (?)')],
    tests: SCHEDULER,
    redundant:
      '`holder = ?` alone keeps the renewal to this holder’s rows, and renewPartitionLeases keeps only leases whose re-read token is the one held (the pair below)',
  },
  {
    id: 'renew-leases.holder',
    condition: '`holder = ?`',
    edits: [always('leases/renew-leases.sql', 'holder = ?')],
    tests: SCHEDULER,
    redundant:
      'a takeover bumps the token, so `(name, token)` alone matches only this holder’s rows (the pair below)',
  },
  {
    id: 'held-leases.expiry',
    condition: '`expires_at > NOW(3)`',
    edits: [sql('leases/held-leases.sql', ' AND expires_at > NOW(3)')],
    tests: SCHEDULER,
    redundant:
      'its callers renew or acquire the leases in the same transaction just before (renew-leases.sql, acquire-leases.sql set expires_at ahead)',
  },
  {
    id: 'release-leases.token',
    condition: '`(name, token) IN (?)`',
    edits: [always('leases/release-leases.sql', '(name, token) IN (?)')],
    tests: SCHEDULER,
  },
  {
    id: 'release-leases.holder',
    condition: '`holder = ?`',
    edits: [always('leases/release-leases.sql', 'holder = ?')],
    tests: SCHEDULER,
    redundant: 'a takeover bumps the token, so `(name, token)` alone matches only this holder’s rows',
  },
  {
    id: 'leave-member.holder',
    condition: '`holder = ?`',
    edits: [always('leases/leave-member.sql', 'holder = ?')],
    tests: SCHEDULER,
    redundant: 'the member row’s name is a digest of its holder, so the name alone is this holder’s row',
  },
  {
    id: 'forget-members.expiry',
    condition: '`expires_at < NOW(3) - INTERVAL 1 HOUR`',
    edits: [sql('leases/forget-members.sql', ' AND expires_at < NOW(3) - INTERVAL 1 HOUR')],
    tests: SCHEDULER,
  },
  // Tenant concurrency slots.
  {
    id: 'claim-slots-part.free',
    condition: '`expires_at IS NULL OR expires_at < NOW(3)`',
    edits: [sql('jobs/claim/claim-slots-part.sql', ' AND (expires_at IS NULL OR expires_at < NOW(3))')],
    tests: SLOTS,
  },
  {
    id: 'claim-slots-part.limit',
    condition: '`slot < ?`',
    edits: [always('jobs/claim/claim-slots-part.sql', 'slot < ?')],
    tests: SLOTS,
  },
  {
    id: 'slots-release.attempt',
    condition: '`attempt` in `(tenant_id, slot, job_id, attempt) IN (?)`',
    edits: [
      sql(
        'jobs/outcome/slots-release.sql',
        '(tenant_id, slot, job_id, attempt) IN (?)',
        '(tenant_id, slot, job_id, 0) IN (?)',
      ),
      {
        file: `${SQL}/jobs/outcome/outcomes.ts`,
        find: 'w.job.tenantSlot, idToBin(w.job.id), w.job.attempt]),',
        replace: 'w.job.tenantSlot, idToBin(w.job.id), 0]),',
      },
    ],
    tests: SLOTS,
  },
  {
    id: 'slots-renew.attempt',
    condition: '`attempt` in `(tenant_id, slot, job_id, attempt) IN (?)`',
    edits: [
      sql(
        'jobs/claim/slots-renew.sql',
        '(tenant_id, slot, job_id, attempt) IN (?)',
        '(tenant_id, slot, job_id, 0) IN (?)',
      ),
      {
        file: `${SQL}/jobs/claim/claim-leases.ts`,
        find: 'c.tenantSlot, idToBin(c.id), c.attempt]),',
        replace: 'c.tenantSlot, idToBin(c.id), 0]),',
      },
    ],
    tests: SLOTS,
    redundant:
      'not needed for safety: a late renewal of a lost claim can only lengthen the hold of the same job’s newer claim on the same slot, which that claim renews and frees itself',
  },
  {
    id: 'slots-trim.free',
    condition: '`job_id IS NULL`',
    edits: [sql('tenants/slots-trim.sql', ' AND job_id IS NULL')],
    tests: [...SLOTS, 'services/task-api/test/app.test.ts'],
  },
  // The fair share's tagger and claim (D23).
  {
    id: 'fair-tags-update.state',
    condition: "`j.state = 'pending'`",
    edits: [sql('jobs/fair-share/fair-tags-update.sql', "WHERE j.state = 'pending' AND ", 'WHERE ')],
    tests: FAIR,
  },
  {
    id: 'fair-tags-update.untagged',
    condition: '`j.claim_tag IS NULL`',
    edits: [sql('jobs/fair-share/fair-tags-update.sql', ' AND j.claim_tag IS NULL')],
    tests: FAIR,
  },
  {
    id: 'claim-select-fair.tagged',
    condition: '`claim_tag >= 0`',
    edits: [sql('jobs/claim/claim-select-fair.sql', ' AND claim_tag >= 0')],
    tests: FAIR,
  },
  {
    id: 'claim-defer.untag',
    condition: '`fair_tag = NULL` (a deferred job is tagged again when due)',
    edits: [sql('jobs/claim/claim-defer.sql', ', fair_tag = NULL')],
    tests: FAIR,
  },
  // The tagger's walk of each tenant's oldest untagged job (D27).
  {
    id: 'fair-heads-select.untagged',
    condition: '`u.claim_tag IS NULL` (the tenant’s oldest untagged job, not its oldest pending one)',
    edits: [sql('jobs/fair-share/fair-heads-select.sql', ' AND u.claim_tag IS NULL')],
    tests: FAIR,
  },
  {
    id: 'fair-heads-select.due',
    condition: '`j.run_at <= NOW(3) + INTERVAL ? MICROSECOND` (only a due head is tagged)',
    edits: [
      sql(
        'jobs/fair-share/fair-heads-select.sql',
        ' AND j.run_at <= NOW(3) + INTERVAL ? MICROSECOND',
        ' AND ? IS NOT NULL',
      ),
    ],
    tests: FAIR,
  },
  {
    id: 'fair-clock-update.heads_after',
    condition: '`heads_after = ?` (the next walk starts where this one stopped)',
    edits: [
      sql(
        'jobs/fair-share/fair-clock-update.sql',
        'heads_after = ?',
        'heads_after = IF(? IS NULL, NULL, NULL)',
      ),
    ],
    tests: FAIR,
  },
  // Pairs: a read and the write that repeats its condition, removed together.
  {
    id: 'release-expired.lease-both',
    condition: '`lease_expires_at < NOW(3)` in release-expired-select.sql and release-expired-update.sql',
    edits: [
      sql('jobs/reconcile/release-expired-select.sql', ' AND lease_expires_at < NOW(3)'),
      sql('jobs/reconcile/release-expired-update.sql', ' AND lease_expires_at < NOW(3)'),
    ],
    tests: RECONCILER,
  },
  {
    id: 'deadline.deadline-both',
    condition: '`deadline_at < NOW(3)` in deadline-select.sql and deadline-update.sql',
    edits: [
      sql('jobs/reconcile/deadline-select.sql', 'deadline_at < NOW(3) AND '),
      sql('jobs/reconcile/deadline-update.sql', ' AND deadline_at < NOW(3)'),
    ],
    tests: RECONCILER,
  },
  {
    id: 'owner.claimed_by-both',
    condition: '`claimed_by IN (?)` in owner-select.sql and owner-update.sql',
    edits: [
      always('jobs/reconcile/owner-select.sql', 'claimed_by IN (?)'),
      always('jobs/reconcile/owner-update.sql', 'claimed_by IN (?)'),
    ],
    tests: RECONCILER,
  },
  {
    id: 'unstarted.state-both',
    condition: "`state = 'pending' AND attempt = 0` in select-unstarted-jobs.sql and supersede-jobs.sql",
    edits: [
      sql('tasks/select-unstarted-jobs.sql', " AND state = 'pending' AND attempt = 0"),
      sql('tasks/supersede-jobs.sql', " AND state = 'pending' AND attempt = 0"),
    ],
    tests: ['services/task-api/test/task-lifecycle.test.ts'],
  },
  {
    id: 'renew-leases.token-holder-both',
    condition: '`(name, token) IN (?)` and `holder = ?` together',
    edits: [
      always('leases/renew-leases.sql', '(name, token) IN (?)'),
      always('leases/renew-leases.sql', 'holder = ?'),
    ],
    tests: SCHEDULER,
  },
  // The workflow walk (D17): every node state change is conditional on the state it leaves.
  {
    id: 'walk-count.state',
    condition: "`c.state = 'waiting'`",
    edits: [sql('workflows/walk-count.sql', "WHERE c.state = 'waiting'", 'WHERE 1')],
    tests: WORKFLOWS,
    redundant:
      "not needed for safety: a child that is no longer waiting is never decided again (walk-decide.sql keeps to waiting children) nor given a job (walk-node-jobs-insert.sql keeps to this step's pending ones), and its counters are read again only after a retry recounts them from its parents (retry-recount.sql)",
  },
  {
    id: 'walk-decide.parents',
    condition: '`c.unfinished_parents = 0`',
    edits: [sql('workflows/walk-decide.sql', ' AND c.unfinished_parents = 0')],
    tests: WORKFLOWS,
  },
  {
    id: 'walk-decide.state',
    condition: "`c.state = 'waiting'`",
    edits: [sql('workflows/walk-decide.sql', " AND c.state = 'waiting'")],
    tests: WORKFLOWS,
    redundant:
      "walk-count.sql gave this step's fresh token (`c.step_token = ?`) only to waiting children, earlier in the same transaction, and holds their rows",
  },
  {
    id: 'walk-finish-nodes.job',
    condition: '`n.job_id = v.job_id`',
    edits: [sql('workflows/walk-finish-nodes.sql', ' AND n.job_id = v.job_id')],
    tests: WORKFLOWS,
    redundant:
      "a node's job id is set once, at submission (nodes-insert.sql), and a retry re-runs that same job; the walk is handed the job row's own workflow and node",
  },
  {
    id: 'walk-finish-nodes.state',
    condition: "`n.state = 'pending'`",
    edits: [sql('workflows/walk-finish-nodes.sql', "WHERE n.state = 'pending' AND ", 'WHERE ')],
    tests: WORKFLOWS,
  },
  {
    id: 'walk-node-jobs-insert.state',
    condition: "`c.state = 'pending'`",
    edits: [sql('workflows/walk-node-jobs-insert.sql', " AND c.state = 'pending'")],
    tests: WORKFLOWS,
  },
  {
    id: 'walk-node-jobs-insert.step',
    condition: '`c.step_token = ?`',
    edits: [always('workflows/walk-node-jobs-insert.sql', 'c.step_token = ?')],
    tests: WORKFLOWS,
    redundant:
      "a pending child of a parent that finishes now was made pending in this same step: a child is decided when its last parent finishes, and a parent finishes once (walk-finish-nodes.sql's state fence, tested)",
  },
  {
    id: 'walk-runs-done.state',
    condition: "`w.state = 'running'`",
    edits: [sql('workflows/walk-runs-done.sql', " AND w.state = 'running'")],
    tests: WORKFLOWS,
    redundant:
      "workflow-finish.sql repeats `state = 'running'` on the same rows (the pair is removed together below)",
  },
  {
    id: 'walk-runs-done.unfinished',
    condition: '`NOT EXISTS` (a node still waiting, ready or pending)',
    edits: [sql('workflows/walk-runs-done.sql', 'AND NOT EXISTS', 'AND 1 OR NOT EXISTS')],
    tests: WORKFLOWS,
  },
  {
    id: 'workflow-finish.state',
    condition: "`state = 'running'`",
    edits: [sql('workflows/workflow-finish.sql', " AND state = 'running'")],
    tests: WORKFLOWS,
    redundant:
      "walk-runs-done.sql and runs-lock.sql locked these runs under `state = 'running'` in the same transaction (the pair is removed together below)",
  },
  // D33: a wide parent told in slices, and a retry's recount of a parent not done telling.
  {
    id: 'walk-slice.count-bounds',
    condition: '`e.child_id > v.after_id AND (v.upto_id IS NULL OR e.child_id <= v.upto_id)` (the slice)',
    edits: [
      sql(
        'workflows/walk-count.sql',
        '\n                AND e.child_id > v.after_id AND (v.upto_id IS NULL OR e.child_id <= v.upto_id)',
      ),
    ],
    tests: ['packages/mysql/test/workflow-wide-parents.test.ts'],
  },
  {
    id: 'walk-slice.mark-cursor',
    condition: '`walk_after <=> ?` (the cursor the slice started from)',
    edits: [sql('workflows/walk-slice-mark.sql', ' AND walk_after <=> ?', ' AND (walk_after <=> ? OR 1)')],
    tests: ['packages/mysql/test/workflow-wide-parents.test.ts'],
    redundant:
      'the parent row is locked by this transaction before its slice is chosen (walk-finish-nodes.sql, or walk-pending-select.sql FOR UPDATE), so no other walker moves the cursor in between',
  },
  {
    id: 'walk-defer.state',
    condition: '`walk_pending IS NULL AND state IN (…finished…)`',
    edits: [
      sql(
        'workflows/walk-defer.sql',
        " AND walk_pending IS NULL\n   AND state IN ('succeeded', 'dead', 'cancelled', 'skipped', 'upstream_failed')",
      ),
    ],
    tests: ['packages/mysql/test/workflow-wide-parents.test.ts', 'packages/mysql/test/workflow-walk.test.ts'],
    redundant:
      'the rows are the frontier walk-finish-nodes.sql finished (and locked) in this same transaction, read back by walk-finished-check.sql: finished, and off the walk queue',
  },
  {
    id: 'retry-recount.untold',
    condition:
      '`p.walk_pending <=> 1 AND (…e.child_id > p.walk_after)` (a parent not done telling counts as unfinished)',
    edits: [
      sql(
        'workflows/retry-recount.sql',
        '\n               OR (p.walk_pending <=> 1 AND (p.walk_after IS NULL OR e.child_id > p.walk_after))',
      ),
    ],
    tests: ['packages/mysql/test/workflow-wide-parents.test.ts'],
  },
  {
    id: 'runs-cancel-unstarted-nodes.state',
    condition: "`state IN ('waiting', 'ready')`",
    edits: [sql('workflows/runs-cancel-unstarted-nodes.sql', " AND state IN ('waiting', 'ready')")],
    tests: WORKFLOWS,
  },
  {
    id: 'runs-cancel-pending-jobs.state',
    condition: "`j.state = 'pending'`",
    edits: [sql('workflows/runs-cancel-pending-jobs.sql', " AND j.state = 'pending'")],
    tests: WORKFLOWS,
  },
  {
    id: 'run-set-paused.state',
    condition: "`state = 'running'`",
    edits: [sql('workflows/run-set-paused.sql', " AND state = 'running'")],
    tests: WORKFLOWS,
    redundant:
      "lockRun (run-lock-tenant.sql, FOR UPDATE) and the check `run.state !== 'running'` before it, in the same transaction",
  },
  {
    id: 'run-reopen.state',
    condition: "`state IN ('succeeded', 'failed', 'cancelled')`",
    edits: [sql('workflows/run-reopen.sql', " AND state IN ('succeeded', 'failed', 'cancelled')")],
    tests: WORKFLOWS,
    redundant:
      "lockRun (run-lock-tenant.sql, FOR UPDATE) and the check `run.state !== 'running'` before it, in the same transaction",
  },
  {
    id: 'retry-reset.succeeded',
    condition: "`n.state <> 'succeeded'`",
    edits: [sql('workflows/retry-reset.sql', " AND n.state <> 'succeeded'")],
    tests: WORKFLOWS,
    redundant:
      "retry-descendants.sql marks only nodes that are neither succeeded nor pending, under the run's lock, and only a pending node can become succeeded",
  },
  {
    id: 'dispatch-lock.paused',
    condition: '`w.paused = 0`',
    edits: [sql('workflows/dispatch-lock.sql', ' AND w.paused = 0')],
    tests: WORKFLOWS,
  },
  {
    id: 'dispatch-release.state',
    condition: "`state = 'ready'`",
    edits: [sql('workflows/dispatch-release.sql', " AND state = 'ready'")],
    tests: WORKFLOWS,
  },
  {
    id: 'sweep-stranded-nodes.final',
    condition: "`j.state IN ('succeeded', 'dead', 'cancelled')`",
    edits: [sql('workflows/sweep-stranded-nodes.sql', " AND j.state IN ('succeeded', 'dead', 'cancelled')")],
    tests: WORKFLOWS,
  },
  // The follow-ups of a finished job (callbacks, failure streak, pause after failures; D18).
  {
    id: 'follow-up-callbacks.state',
    condition: "`s.state IN ('succeeded', 'dead')`",
    edits: [
      sql('jobs/follow-ups/follow-up-callbacks.sql', "WHERE s.state IN ('succeeded', 'dead') AND ", 'WHERE '),
    ],
    tests: FOLLOW_UPS,
  },
  {
    id: 'follow-up-callbacks.kind',
    condition: "`s.kind <> 'callback'`",
    edits: [sql('jobs/follow-ups/follow-up-callbacks.sql', " AND s.kind <> 'callback'")],
    tests: FOLLOW_UPS,
    redundant:
      'a callback job is inserted without `callbacks`, so the `JSON_EXTRACT(s.callbacks, …) IS NOT NULL` condition already leaves it out',
  },
  {
    id: 'follow-up-callbacks.ignore',
    condition: '`INSERT IGNORE` (one callback per job and attempt group)',
    edits: [sql('jobs/follow-ups/follow-up-callbacks.sql', 'INSERT IGNORE INTO jobs', 'INSERT INTO jobs')],
    tests: FOLLOW_UPS,
  },
  {
    id: 'follow-up-pause.state',
    condition: "`state = 'active'`",
    edits: [sql('jobs/follow-ups/follow-up-pause.sql', " AND state = 'active'")],
    tests: FOLLOW_UPS,
  },
  {
    id: 'follow-up-pause.streak',
    condition: '`failure_streak >= pause_after_failures`',
    edits: [sql('jobs/follow-ups/follow-up-pause.sql', '\n   AND failure_streak >= pause_after_failures')],
    tests: FOLLOW_UPS,
  },
  {
    id: 'follow-up-supersede.unstarted',
    condition: "`j.state = 'pending' AND j.attempt = 0`",
    edits: [sql('jobs/follow-ups/follow-up-supersede.sql', " AND j.state = 'pending' AND j.attempt = 0")],
    tests: FOLLOW_UPS,
  },
  {
    id: 'follow-up-streak.final',
    condition: "`s.state IN ('succeeded', 'dead')` (the outer read)",
    edits: [
      sql(
        'jobs/follow-ups/follow-up-streak.sql',
        "WHERE s.id IN (?) AND s.counts_failures = 1 AND s.state IN ('succeeded', 'dead')",
        'WHERE s.id IN (?) AND s.counts_failures = 1',
      ),
    ],
    tests: FOLLOW_UPS,
  },
  {
    id: 'runs-done.state-both',
    condition: "`state = 'running'` in walk-runs-done.sql and workflow-finish.sql",
    edits: [
      sql('workflows/walk-runs-done.sql', " AND w.state = 'running'"),
      sql('workflows/workflow-finish.sql', " AND state = 'running'"),
    ],
    tests: WORKFLOWS,
  },
];

interface VitestJson {
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

function failingTests(files: string[]): { failed: string[]; ran: number } {
  const dir = mkdtempSync(join(tmpdir(), 'fence-'));
  const out = join(dir, 'report.json');
  try {
    spawnSync('pnpm', ['exec', 'vitest', 'run', ...files, '--reporter=json', `--outputFile=${out}`], {
      stdio: 'ignore',
      timeout: 15 * 60_000,
    });
    const report = JSON.parse(readFileSync(out, 'utf8')) as VitestJson;
    const failed: string[] = [];
    let ran = 0;
    for (const file of report.testResults) {
      const name = file.name.replace(`${process.cwd()}/`, '');
      for (const t of file.assertionResults) {
        ran++;
        if (t.status === 'failed') failed.push(`${name} › ${t.fullName}`);
      }
      if (file.assertionResults.length === 0) failed.push(`${name} (did not run)`);
    }
    return { failed, ran };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  const check = process.argv.includes('--check');
  const filters = process.argv.slice(2).filter((a) => a !== '--check');
  const chosen = MUTATIONS.filter((m) => filters.length === 0 || filters.some((f) => m.id.includes(f)));
  const files = [...new Set(chosen.flatMap((m) => m.edits.map((e) => e.file)))];
  const dirty = execFileSync('git', ['status', '--porcelain', '--', ...files], { encoding: 'utf8' }).trim();
  if (dirty) throw new Error(`uncommitted changes in files this would edit:\n${dirty}`);
  const originals = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const restore = () => {
    for (const [f, text] of originals) writeFileSync(f, text);
  };
  process.on('SIGINT', () => {
    restore();
    process.exit(130);
  });
  console.log('| statement | condition removed | tests that fail without it |');
  console.log('| --- | --- | --- |');
  for (const m of chosen) {
    try {
      for (const e of m.edits) {
        const text = readFileSync(e.file, 'utf8');
        if (text.split(e.find).length !== 2) throw new Error(`${m.id}: "${e.find}" is not once in ${e.file}`);
        writeFileSync(e.file, text.replace(e.find, e.replace));
      }
      if (check) {
        console.log(`| ${m.id} | applies |`);
        continue;
      }
      const { failed, ran } = failingTests(m.tests);
      console.error(`${m.id}: ${failed.length} of ${ran} tests failed`);
      const verdict =
        failed.length > 0
          ? failed.join('<br>')
          : m.redundant
            ? `none — by design: ${m.redundant}`
            : '**none: a missing test**';
      const file = m.edits[0]!.file.replace(`${SQL}/`, '');
      console.log(`| \`${file}\` | ${m.condition} | ${verdict} |`);
    } finally {
      restore();
    }
  }
}

main();
