import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { insertJobs } from '@dsched/testkit/fixtures';
import { pollUntil } from '../harness/wait.ts';
import type { Scenario } from './types.ts';

// A bulk cancel by tag (docs/bulk-operations.md) of 50,000 pending jobs, one call, with the
// reconciler carrying it out killed (kill -9) when 40% is done and started again: every matching
// job ends cancelled, the operation's `done` equals its `matched` and its batch count is the
// minimum (no batch applied twice), and the decoys around it (the same tenant's other tag, another
// tenant's same tag) are untouched, row for row. A second operation started behind it and cancelled
// at once ends cancelled having changed nothing. The jobs are due in an hour, so no executor calls
// them; the archiver is left out so the cancelled rows stay to be counted.

interface OperationBody {
  id: string;
  state: string;
  matched: number;
  done: number;
  failed: number;
  cancelRequested?: boolean;
  dryRun?: boolean;
  error?: { details?: { field?: string }[] };
}

const BATCH = 500;

export const bulkCancel: Scenario = {
  name: 'bulk-cancel',
  summary: 'one bulk cancel by tag of 50,000 pending jobs; the reconciler kill -9d at 40% and restarted',
  knobs: { jobs: 50_000 },
  async run(run) {
    const n = run.knob('jobs', 50_000);
    const decoysEach = Math.max(100, Math.floor(n / 10));
    await run.start({
      tenants: 2,
      profiles: {},
      replicas: { 'task-api': 1, 'job-api': 1, scheduler: 1, executor: 1, reconciler: 1, archiver: 0 },
      env: {
        RECONCILER_OPERATION_BATCH_SIZE: String(BATCH),
        RECONCILER_OPERATION_LEASE_MS: '5000',
        RECONCILER_OPERATION_INTERVAL_MS: '500',
      },
    });
    const [owner, other] = run.tenants as [(typeof run.tenants)[0], (typeof run.tenants)[0]];
    const pool = run.view.pool;
    const origin = Date.now();
    const at = (i: number) => new Date(origin + 3600_000 + (i % 3600) * 1000);
    const jobs = (tenantId: string, count: number, tags: Record<string, string>) =>
      Array.from({ length: count }, (_, i) => ({
        tenantId,
        taskId: null,
        scheduledFor: at(i),
        state: 'pending' as const,
        tags,
      }));
    run.mark(`inserting ${n} matching jobs and ${2 * decoysEach} decoys`);
    const matching = await insertJobs(pool, jobs(owner.id, n, { bulk: 'yes' }));
    const decoys = await insertJobs(pool, [
      ...jobs(owner.id, decoysEach, { bulk: 'no' }),
      ...jobs(other.id, decoysEach, { bulk: 'yes' }),
    ]);
    const fingerprint = async (ids: string[]) => {
      const out: string[] = [];
      for (let i = 0; i < ids.length; i += 5000) {
        const [rows] = await pool.query<RowDataPacket[]>(
          'SELECT state, cancel_requested, updated_at FROM jobs WHERE id IN (?) ORDER BY id',
          [ids.slice(i, i + 5000).map(idToBin)],
        );
        for (const r of rows) out.push(`${r.state}/${r.cancel_requested}/${r.updated_at.getTime()}`);
      }
      return out.join('\n');
    };
    const decoysBefore = await fingerprint(decoys);
    const call = (method: string, path: string, body?: unknown, token = owner.apiKey) =>
      run.taskApi.call<OperationBody>(method, path, { token, tries: 3, ...(body ? { body } : {}) });

    const empty = await call('POST', '/v1/operations', { action: 'cancel', filter: {} });
    const dry = await call('POST', '/v1/operations', {
      action: 'cancel',
      filter: { tag: 'bulk:yes' },
      dryRun: true,
    });
    const pendingAfterDry = await countPending(pool, matching);
    run.mark(`dry run: matched ${dry.body.matched}; an empty filter answered ${empty.status}`);

    const t0 = Date.now();
    const start = await call('POST', '/v1/operations', { action: 'cancel', filter: { tag: 'bulk:yes' } });
    const id = start.body.id;
    run.mark(
      `operation ${id} started (${start.status}): matched ${start.body.matched} in ${Date.now() - t0} ms`,
    );
    // Queued behind the first (one reconciler works one operation at a time), cancelled at once.
    const second = await call(
      'POST',
      '/v1/operations',
      { action: 'cancel', filter: { tag: 'bulk:yes' } },
      other.apiKey,
    );
    const secondCancel = await call(
      'POST',
      `/v1/operations/${second.body.id}/cancel`,
      undefined,
      other.apiKey,
    );

    const progress = async (opId = id, token = owner.apiKey) =>
      (await call('GET', `/v1/operations/${opId}`, undefined, token)).body;
    let doneAtKill = -1;
    const killAt = Math.floor(n * 0.4);
    await pollUntil(
      async () => {
        const p = await progress();
        if (p.done < killAt && p.state === 'running') return false;
        if (p.state === 'running') {
          doneAtKill = p.done;
          const victim = run.fleet.of('reconciler')[0]!;
          run.mark(`kill -9 ${victim.id} at ${p.done} of ${p.matched} done`);
          await run.fleet.kill(victim, { restartAfterMs: 1000 });
        }
        return true;
      },
      { timeoutMs: 600_000, intervalMs: 100 },
    );
    if (doneAtKill < 0) run.notes.push('the operation ended before 40% was seen: the kill did not happen');
    let end: OperationBody = await progress();
    await pollUntil(
      async () => {
        end = await progress();
        return end.state !== 'running';
      },
      { timeoutMs: 600_000, intervalMs: 250 },
    );
    const seconds = (Date.now() - t0) / 1000;
    run.mark(`operation ${end.state}: ${end.done} done, ${end.failed} failed in ${seconds.toFixed(1)} s`);
    const secondEnd = await progress(second.body.id, other.apiKey);
    const [[ops]] = await pool.query<RowDataPacket[]>('SELECT batches FROM operations WHERE id = ?', [
      idToBin(id),
    ]);
    const batches = Number(ops!.batches);
    const cancelled = n - (await countPending(pool, matching));
    const [[stillRunning]] = await pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND state <> 'cancelled' AND JSON_CONTAINS(tags, ?)",
      [idToBin(owner.id), JSON.stringify({ bulk: 'yes' })],
    );
    const decoysTouched = (await fingerprint(decoys)) === decoysBefore ? 0 : 1;
    const minBatches = Math.floor(n / BATCH) + 1;

    run.extraChecks.push(
      { name: 'an empty filter is a 400', ok: empty.status === 400, detail: `answered ${empty.status}` },
      {
        name: 'the dry run counted every matching job and changed nothing',
        ok: dry.status === 200 && dry.body.matched === n && pendingAfterDry === n,
        detail: `matched ${dry.body.matched}, ${pendingAfterDry} still pending`,
      },
      {
        name: 'the operation succeeded through the kill, every matching job cancelled once',
        ok:
          end.state === 'succeeded' &&
          end.done === n &&
          end.failed === 0 &&
          cancelled === n &&
          Number(stillRunning!.n) === 0,
        detail: `${end.state}: matched ${end.matched}, done ${end.done}, failed ${end.failed}; ${cancelled} cancelled`,
      },
      {
        name: 'no batch was applied twice (the batch count is the minimum)',
        ok: batches === minBatches,
        detail: `${batches} batches for ${n} jobs of ${BATCH} (minimum ${minBatches})`,
      },
      {
        name: 'the decoys were not touched',
        ok: decoysTouched === 0,
        detail: `${2 * decoysEach} decoys compared row for row`,
      },
      {
        name: 'an operation cancelled before its first batch changed nothing',
        ok: secondCancel.status === 200 && secondEnd.state === 'cancelled' && secondEnd.done === 0,
        detail: `${secondEnd.state}, done ${secondEnd.done}`,
      },
    );
    // The standard analysis is of the sink's calls; these jobs were never due. Remove them so it
    // sees none (a cancelled job would otherwise count as one no occurrence expected).
    for (const ids of [matching, decoys]) {
      for (let i = 0; i < ids.length; i += 5000) {
        const chunk = ids.slice(i, i + 5000).map(idToBin);
        await pool.query('DELETE FROM job_tags WHERE job_id IN (?)', [chunk]);
        await pool.query('DELETE FROM jobs WHERE id IN (?)', [chunk]);
      }
    }
    const result = await run.finish(origin, origin, () => '');
    Object.assign(result.metrics, {
      lost: n - cancelled,
      duplicates: Math.max(0, batches - minBatches),
    });
    result.headline = `${end.done} of ${end.matched} cancelled in ${seconds.toFixed(1)} s (${Math.round(n / seconds)}/s) through a kill -9 at ${doneAtKill}; ${batches} batches (minimum ${minBatches}), decoys touched ${decoysTouched}`;
    Object.assign(result.metrics, {
      bulk_matched: end.matched,
      bulk_done: end.done,
      bulk_failed: end.failed,
      bulk_batches: batches,
      bulk_done_at_kill: doneAtKill,
      bulk_seconds: Number(seconds.toFixed(1)),
      bulk_jobs_per_s: Math.round(n / seconds),
      bulk_decoys_touched: decoysTouched,
    });
    return result;
  },
};

async function countPending(pool: import('@dsched/mysql/pool').Pool, ids: string[]): Promise<number> {
  let pending = 0;
  for (let i = 0; i < ids.length; i += 5000) {
    const [rows] = await pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND state = 'pending'",
      [ids.slice(i, i + 5000).map(idToBin)],
    );
    pending += Number(rows[0]!.n);
  }
  return pending;
}
