import { useEffect, useState } from 'preact/hooks';
import { when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { href } from '../router.ts';
import { traceUrl } from '../session.ts';
import { Badge, ErrorBanner, Notice, usePoll } from '../ui.tsx';

// One run: the latest attempt's error first, every attempt newest first, a 202 job's heartbeat and
// progress, and the request as dsched sends it (the task's target plus the headers every call
// carries). Polled every 2 s until the run has ended (a cancel or a redrive from here resumes it).

const FINAL = new Set(['succeeded', 'dead', 'cancelled']);

export function RunDetailScreen({ client, jobId }: ScreenProps & { jobId: string }) {
  const job = usePoll(() => client.getJob(jobId), [jobId], {
    everyMs: 2000,
    until: (j) => FINAL.has(j.state),
  });
  const taskId = job.data?.taskId;
  const task = usePoll(async () => (taskId ? client.getTask(taskId) : undefined), [taskId]);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  // The occurrence's trace (docs/tracing.md), linked where CONSOLE_TRACE_URL says traces are shown.
  const traceId = job.data?.attempts.find((a) => a.traceId)?.traceId;
  const [traceLink, setTraceLink] = useState<string | null>(null);
  useEffect(() => {
    if (traceId) void traceUrl(traceId).then(setTraceLink);
  }, [traceId]);
  const j = job.data;
  if (!j) return <ErrorBanner error={job.error} />;
  const attempts = [...j.attempts].sort((a, b) => b.attempt - a.attempt);
  const latest = attempts[0];
  const act = async (label: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      setNotice(label);
      setError(undefined);
      await job.reload();
    } catch (e) {
      setError(e);
    }
  };
  const t = task.data;
  // A workflow task's occurrence calls nothing itself (it starts a run): no request to show.
  const target = t?.target;
  const headers: [string, string][] = target
    ? [
        ...Object.entries(target.headers ?? {}),
        ...(target.body !== undefined ? ([['Content-Type', 'application/json']] as [string, string][]) : []),
        ['Idempotency-Key', j.id],
        ['Dsched-Attempt', String(Math.max(1, j.attempt))],
        ['Dsched-Scheduled-For', j.scheduledFor],
        ['Dsched-Task-Id', t.id],
        ['webhook-id', j.id],
        ['webhook-timestamp', '(seconds at the attempt)'],
        ['webhook-signature', 'v1,(HMAC-SHA256 with the tenant’s signing secret)'],
      ]
    : [];
  return (
    <section aria-labelledby="h-run">
      <div class="title-row">
        <h1 id="h-run">
          Run <code>{j.id}</code> <Badge state={j.state} />
        </h1>
        <div class="actions">
          {!FINAL.has(j.state) ? (
            <button type="button" onClick={() => act('Cancel requested.', () => client.cancelJob(j.id))}>
              Cancel
            </button>
          ) : null}
          {j.state === 'dead' ? (
            <button type="button" onClick={() => act('Redriven.', () => client.retryJob(j.id))}>
              Retry (redrive)
            </button>
          ) : null}
        </div>
      </div>
      <Notice text={notice} />
      <ErrorBanner error={error ?? job.error} />
      {j.lastError ? (
        <p class="banner error">
          Latest error{latest?.status ? ` (HTTP ${latest.status})` : ''}: {j.lastError}
        </p>
      ) : null}
      <dl class="facts">
        <dt>Task</dt>
        <dd>{j.taskId ? <a href={href(`/tasks/${j.taskId}`)}>{t?.name ?? j.taskId}</a> : '—'}</dd>
        {j.workflowId ? (
          <>
            <dt>Workflow</dt>
            <dd>
              <a href={href(`/workflows/${j.workflowId}`)}>{j.workflowId}</a> node {j.nodeId}
            </dd>
          </>
        ) : null}
        <dt>Kind</dt>
        <dd>{j.kind}</dd>
        <dt>Scheduled for</dt>
        <dd title={j.scheduledFor}>{when(j.scheduledFor)}</dd>
        <dt>Attempt</dt>
        <dd>
          {j.attempt} of {j.maxAttempts}
        </dd>
        <dt>Priority</dt>
        <dd>{j.priority}</dd>
        {traceId ? (
          <>
            <dt>Trace</dt>
            <dd>
              {traceLink ? (
                <a href={traceLink} target="_blank" rel="noopener noreferrer">
                  <code>{traceId}</code>
                </a>
              ) : (
                <code>{traceId}</code>
              )}
            </dd>
          </>
        ) : null}
        {j.heartbeatBy ? (
          <>
            <dt>Heartbeat due by</dt>
            <dd>{when(j.heartbeatBy)}</dd>
          </>
        ) : null}
        {j.deadlineAt ? (
          <>
            <dt>Deadline</dt>
            <dd>{when(j.deadlineAt)}</dd>
          </>
        ) : null}
        {j.progress ? (
          <>
            <dt>Progress (202)</dt>
            <dd>
              <code>{JSON.stringify(j.progress)}</code>
            </dd>
          </>
        ) : null}
        {j.output ? (
          <>
            <dt>Output</dt>
            <dd>
              <code>{JSON.stringify(j.output)}</code>
            </dd>
          </>
        ) : null}
      </dl>
      <h2>Attempts, newest first</h2>
      <div class="table-wrap">
        <table class="attempts">
          <caption class="sr-only">Attempts</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Started</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Latency</th>
              <th scope="col">Error</th>
              <th scope="col">Executor</th>
            </tr>
          </thead>
          <tbody>
            {attempts.length === 0 ? (
              <tr>
                <td colSpan={6}>No attempt yet.</td>
              </tr>
            ) : null}
            {attempts.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td title={a.startedAt}>{when(a.startedAt)}</td>
                <td>{a.status ?? '—'}</td>
                <td>{a.durationMs !== undefined ? `${a.durationMs} ms` : a.finishedAt ? '—' : 'running'}</td>
                <td class="err-text">
                  {a.error ?? ''}
                  {a.errorClass ? <span class="sub"> ({a.errorClass})</span> : null}
                </td>
                <td>
                  <code>{a.executor}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>The request as sent</h2>
      {target ? (
        <pre class="request">
          {`${target.method} ${target.url}\n`}
          {headers.map(([k, v]) => `${k}: ${v}\n`).join('')}
          {target.body !== undefined ? `\n${JSON.stringify(target.body, null, 2)}` : ''}
        </pre>
      ) : (
        <p class="sub">
          {j.taskId ? 'Loading the task…' : 'This run has no task (a workflow node or a callback).'}
        </p>
      )}
    </section>
  );
}
