import type { Run } from '../harness/run.ts';
import { pollUntil } from '../harness/wait.ts';

// What the history fault scenarios ask job-api while a store is away (cassandra-down,
// cassandra-node-down): answers counted by status, and an archived job to ask for.

export interface Probe {
  ok: number;
  wrong: number;
  /** The statuses seen, `503×12`. */
  statuses: Map<number, number>;
}

export const newProbe = (): Probe => ({ ok: 0, wrong: 0, statuses: new Map() });

export const count = (p: Probe, status: number, ok: boolean) => {
  p.statuses.set(status, (p.statuses.get(status) ?? 0) + 1);
  if (ok) p.ok++;
  else p.wrong++;
};

export const describe = (p: Probe) => [...p.statuses].map(([s, n]) => `${s}×${n}`).join(', ') || 'no answer';

type ErrorBody = { error?: { code?: string; details?: { field?: string; issue?: string }[] } };

/** A 503 that names history as the store away (D20). */
export const isHistoryUnavailable = (status: number, body: unknown) =>
  status === 503 &&
  (body as ErrorBody)?.error?.details?.some((d) => d.field === '(history)' && d.issue === 'unavailable') ===
    true;

/** A job the sink saw that is in history and gone from MySQL, with its tenant's key (20 s at most). */
export async function findArchivedJob(run: Run): Promise<{ id: string; key: string } | undefined> {
  const records = await run.sink.records();
  let archived: { id: string; key: string } | undefined;
  await pollUntil(
    async () => {
      const live = await run.view.liveJobIds();
      for (let i = 0; i < records.key.length && !archived; i += 50) {
        const id = records.key[i] ?? '';
        if (!live.has(id) && (await run.view.inHistory(id)))
          archived = { id, key: run.tenants[records.tenant[i] ?? 0]?.apiKey ?? '' };
      }
      return archived !== undefined;
    },
    { timeoutMs: 20_000, intervalMs: 1000 },
  );
  return archived;
}
