import type { Task } from '@dsched/client/browser';
import { useState } from 'preact/hooks';
import { ago, fromLocalInput, scheduleWords, toLocalInput, when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go, href } from '../router.ts';
import { Badge, ErrorBanner, Notice, useConfirm, usePoll } from '../ui.tsx';

// One task: what it is, its next fires (DST-shifted or repeated hours marked), its recent runs
// (polled, so a new run appears without reload), trigger, backfill and the audit of a range.

type AuditResult = Awaited<ReturnType<ScreenProps['client']['auditTask']>>;

export function TaskDetailScreen({ client, taskId }: ScreenProps & { taskId: string }) {
  const task = usePoll(() => client.getTask(taskId), [taskId]);
  const upcoming = usePoll(() => client.occurrences(taskId, { count: 10 }), [taskId, task.data?.version]);
  const runs = usePoll(() => client.runsPage(taskId, { limit: 20 }), [taskId], 2000);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const now = new Date();
  const [from, setFrom] = useState(toLocalInput(new Date(now.getTime() - 86400_000)));
  const [to, setTo] = useState(toLocalInput(now));
  const [audit, setAudit] = useState<AuditResult>();
  const confirm = useConfirm();

  const act = async (label: string, fn: () => Promise<unknown>) => {
    setError(undefined);
    try {
      const r = await fn();
      setNotice(label.replace('{}', JSON.stringify(r ?? '')));
      await Promise.all([task.reload(), runs.reload()]);
    } catch (e) {
      setError(e);
    }
  };
  const t: Task | undefined = task.data;
  if (!t) return <ErrorBanner error={task.error} />;
  const s = scheduleWords(t.schedule);
  return (
    <section aria-labelledby="h-task">
      <div class="title-row">
        <h1 id="h-task">
          {t.name} {t.state === 'paused' ? <Badge state="paused" /> : <Badge state="active" />}
        </h1>
        <div class="actions">
          <button
            type="button"
            onClick={() =>
              act('Triggered: job {}', () =>
                client.triggerTask(t.id, { idempotencyKey: crypto.randomUUID() }),
              )
            }
          >
            Trigger now
          </button>
          {t.state === 'paused' ? (
            <button type="button" onClick={() => act('Resumed.', () => client.resumeTask(t.id))}>
              Resume
            </button>
          ) : (
            <button type="button" onClick={() => act('Paused.', () => client.pauseTask(t.id))}>
              Pause
            </button>
          )}
          <a class="button" href={href(`/tasks/${t.id}/edit`)}>
            Edit
          </a>
          <button
            type="button"
            class="danger"
            onClick={async () => {
              if (!(await confirm.ask(`Delete task ${t.name}? Its history stays.`))) return;
              await act('Deleted.', () => client.deleteTask(t.id));
              go('/tasks');
            }}
          >
            Delete
          </button>
        </div>
      </div>
      {confirm.dialog}
      <Notice text={notice} />
      <ErrorBanner error={error} />
      <dl class="facts">
        <dt>Schedule</dt>
        <dd>
          {s.words} <span class="sub">({s.zone})</span>
        </dd>
        {t.schedule.text ? (
          <>
            <dt>In words</dt>
            <dd>
              <q>{t.schedule.text}</q>
            </dd>
          </>
        ) : null}
        <dt>Target</dt>
        <dd>
          <code>
            {t.target ? `${t.target.method} ${t.target.url}` : `workflow ${t.workflow?.name ?? ''}`}
          </code>
        </dd>
        <dt>Priority</dt>
        <dd>{t.priority}</dd>
        <dt>Retry</dt>
        <dd>up to {t.retry.maxAttempts} attempts</dd>
        {t.pausedReason ? (
          <>
            <dt>Paused because</dt>
            <dd>{t.pausedReason}</dd>
          </>
        ) : null}
        <dt>Id</dt>
        <dd>
          <code>{t.id}</code>
        </dd>
      </dl>
      <div class="columns">
        <section aria-labelledby="h-upcoming">
          <h2 id="h-upcoming">Upcoming</h2>
          <ErrorBanner error={upcoming.error} />
          <ol class="timeline">
            {upcoming.data?.occurrences.map((o) => (
              <li key={`${o.at}-${o.fires}`} class={o.fires ? '' : 'skipped'}>
                <span title={o.at}>{when(o.at)}</span>{' '}
                <span class="sub">
                  {o.localTime} {o.utcOffset}
                </span>
                {o.dst ? <Badge state={`dst-${o.dst}`} /> : null}
                {o.note ? <div class="sub">{o.note}</div> : null}
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="h-recent">
          <h2 id="h-recent">Recent runs</h2>
          <p class="sub">Refreshed every 2 s.</p>
          <ErrorBanner error={runs.error} />
          <ol class="timeline runs" aria-live="polite">
            {runs.data?.runs.length === 0 ? <li>No runs yet.</li> : null}
            {runs.data?.runs.map((r) => (
              <li key={r.id}>
                <a href={href(`/runs/${r.id}`)}>
                  <span title={r.scheduledFor}>{when(r.scheduledFor)}</span>
                </a>{' '}
                <Badge state={r.state} />{' '}
                <span class="sub">
                  attempt {r.attempt}/{r.maxAttempts} · {r.kind} · {ago(r.finishedAt ?? r.scheduledFor)}
                </span>
                {r.lastError ? <div class="err-text">{r.lastError}</div> : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
      <section aria-labelledby="h-range">
        <h2 id="h-range">Backfill or audit a range</h2>
        <div class="filters">
          <label>
            From <input type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          </label>
          <label>
            To <input type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          </label>
          <button
            type="button"
            onClick={async () => {
              if (
                !(await confirm.ask(
                  `Run every occurrence of ${t.name} between ${from} and ${to} as backfill jobs?`,
                ))
              )
                return;
              await act('Backfill: {}', () =>
                client.backfillTask(t.id, { from: fromLocalInput(from), to: fromLocalInput(to) }),
              );
            }}
          >
            Backfill
          </button>
          <button
            type="button"
            onClick={() =>
              act('Audited.', async () =>
                setAudit(
                  await client.auditTask(t.id, { from: fromLocalInput(from), to: fromLocalInput(to) }),
                ),
              )
            }
          >
            Audit
          </button>
        </div>
        {audit ? <AuditTable audit={audit} /> : null}
      </section>
    </section>
  );
}

function AuditTable(props: { audit: AuditResult }) {
  const rows = props.audit.occurrences;
  const counts = Object.entries(props.audit.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  return (
    <div class="table-wrap">
      <table>
        <caption>
          Audit: {rows.length} occurrences ({counts || 'none'})
        </caption>
        <thead>
          <tr>
            <th scope="col">Occurrence</th>
            <th scope="col">What became of it</th>
            <th scope="col">Job</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((o) => (
            <tr
              key={o.scheduledFor}
              class={o.status === 'missing' || o.status === 'skipped' ? `mark-${o.status}` : ''}
            >
              <td>{when(o.scheduledFor)}</td>
              <td>
                <Badge state={o.status} />
                {o.reason ? <span class="sub"> {o.reason}</span> : null}
              </td>
              <td>{o.jobId ? <a href={href(`/runs/${o.jobId}`)}>{o.jobId}</a> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
