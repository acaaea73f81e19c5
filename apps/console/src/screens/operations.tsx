import type { BulkOperation, DschedClient, StartOperationRequest } from '@dsched/client/browser';
import { useState } from 'preact/hooks';
import { when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go, href } from '../router.ts';
import { Badge, ErrorBanner, Notice, useConfirm, usePoll } from '../ui.tsx';

// Bulk operations (docs/bulk-operations.md): the server cancels, pauses, resumes, redrives or
// retries everything a filter matches, in batches, whether or not this tab stays open. The list
// and one operation's progress are polled every second; a running one can be cancelled (it stops
// before its next batch). Other screens start one from their filter with useBulkOperation.

const WHAT: Record<string, string> = {
  cancel: 'runs to cancel',
  pause: 'tasks to pause',
  resume: 'tasks to resume',
  redrive: 'dead runs to redrive',
  retry: 'runs waiting to retry, to run now',
};

function filterText(op: BulkOperation): string {
  const f = op.filter;
  return (
    [
      ...(f.taskId ? [`task ${f.taskId}`] : []),
      ...(f.tag ?? []),
      ...(f.state ? [`state ${f.state}`] : []),
      ...(f.from ? [`from ${f.from}`] : []),
      ...(f.to ? [`to ${f.to}`] : []),
      ...(f.errorContains ? [`error contains "${f.errorContains}"`] : []),
    ].join(', ') || '-'
  );
}

function Progress({ op }: { op: BulkOperation }) {
  const label = `${op.done} of ${op.matched} done${op.failed ? `, ${op.failed} failed` : ''}`;
  return (
    <span class="op-progress">
      <progress max={Math.max(op.matched, 1)} value={op.done} aria-label={`Progress: ${label}`} />{' '}
      <span>{label}</span>
    </span>
  );
}

/**
 * Starts a bulk operation from a screen's filter: counts it first (a dry run), asks, starts it and
 * opens its progress. `dialog` goes into the screen.
 */
export function useBulkOperation(client: DschedClient) {
  const confirm = useConfirm();
  const [error, setError] = useState<unknown>();
  const start = async (action: StartOperationRequest['action'], filter: StartOperationRequest['filter']) => {
    setError(undefined);
    try {
      const dry = await client.startOperation({ action, filter, dryRun: true });
      const matched = 'matched' in dry ? dry.matched : 0;
      if (matched === 0) {
        setError(new Error(`Nothing matches: no ${WHAT[action]}.`));
        return;
      }
      const ok = await confirm.ask(
        `${action[0]!.toUpperCase()}${action.slice(1)} all ${matched} matching? dsched does it in batches on the server; you can close this tab and follow it under Operations.`,
      );
      if (!ok) return;
      const op = await client.startOperation({ action, filter });
      if ('id' in op) go(`/operations/${op.id}`);
    } catch (e) {
      setError(e);
    }
  };
  return { start, dialog: confirm.dialog, error };
}

export function OperationsScreen({ client, route }: ScreenProps) {
  const id = route.path[1];
  return id ? <OperationDetail client={client} id={id} /> : <OperationList client={client} />;
}

function OperationList({ client }: { client: DschedClient }) {
  const list = usePoll(() => client.operationsPage({ limit: 50 }), [], 1000);
  const ops = list.data?.operations ?? [];
  return (
    <section aria-labelledby="h-ops">
      <h1 id="h-ops">Operations</h1>
      <p>Bulk actions started here or from the Runs, Tasks and DLQ filters, newest first.</p>
      <ErrorBanner error={list.error} />
      <div class="table-wrap">
        <table class="operations">
          <caption class="sr-only">Bulk operations</caption>
          <thead>
            <tr>
              <th scope="col">Operation</th>
              <th scope="col">Action</th>
              <th scope="col">Filter</th>
              <th scope="col">State</th>
              <th scope="col">Progress</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {ops.map((op) => (
              <tr key={op.id}>
                <td>
                  <a href={href(`/operations/${op.id}`)}>
                    <code>{op.id}</code>
                  </a>
                </td>
                <td>{op.action}</td>
                <td>{filterText(op)}</td>
                <td>
                  <Badge state={op.state} />
                </td>
                <td>
                  <Progress op={op} />
                </td>
                <td>{when(op.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data && ops.length === 0 ? <p>No operations yet.</p> : null}
    </section>
  );
}

function OperationDetail({ client, id }: { client: DschedClient; id: string }) {
  // Every second until it ends (a finished operation does not change again).
  const op = usePoll(() => client.getOperation(id), [id], {
    everyMs: 1000,
    until: (o) => o.state !== 'running',
  });
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const o = op.data;
  const cancel = async () => {
    try {
      await client.cancelOperation(id);
      setNotice('Cancel asked: the operation stops before its next batch.');
      await op.reload();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="h-op">
      <h1 id="h-op">
        Operation <code>{id}</code>
      </h1>
      <Notice text={notice} />
      <ErrorBanner error={op.error ?? error} />
      {o ? (
        <>
          <h2>
            {o.action} <Badge state={o.state} />
          </h2>
          <dl class="facts">
            <dt>Filter</dt>
            <dd>{filterText(o)}</dd>
            <dt>Progress</dt>
            <dd>
              <Progress op={o} />
            </dd>
            {o.error ? (
              <>
                <dt>Error</dt>
                <dd>{o.error}</dd>
              </>
            ) : null}
            <dt>Started</dt>
            <dd>{when(o.createdAt)}</dd>
            <dt>Finished</dt>
            <dd>{o.finishedAt ? when(o.finishedAt) : '-'}</dd>
          </dl>
          {o.state === 'running' ? (
            <div class="toolbar">
              <button type="button" disabled={o.cancelRequested} onClick={cancel}>
                {o.cancelRequested ? 'Cancel asked' : 'Cancel operation'}
              </button>
            </div>
          ) : null}
          <p>
            <a href={href('/operations')}>All operations</a>
          </p>
        </>
      ) : null}
    </section>
  );
}
