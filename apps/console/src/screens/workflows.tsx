import type { WorkflowSummary } from '@dsched/client/browser';
import { useState } from 'preact/hooks';
import { fromLocalInput, parseTagInput, tagsText, when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go, href } from '../router.ts';
import { Badge, ErrorBanner, FilterInput, Pager, usePoll } from '../ui.tsx';
import { WorkflowView } from './workflow-run.tsx';

// The runs list (GET /v1/workflows: live and archived runs newest first, filtered by state, name,
// tags and creation time, every filter in the URL so a view can be saved or shared), live: every
// 2 s after a change, backing off to 10 s while nothing changes; and a run by id (workflow-run.tsx).

export function WorkflowsScreen({
  client,
  route,
  workflowId,
}: ScreenProps & { workflowId?: string | undefined }) {
  const [open, setOpen] = useState(workflowId ?? '');
  return (
    <section aria-labelledby="h-wf">
      <h1 id="h-wf">Workflows</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          if (open.trim()) go(`/workflows/${open.trim()}`);
        }}
      >
        <label>
          Workflow id <input size={40} value={open} onInput={(e) => setOpen(e.currentTarget.value)} />
        </label>
        <button type="submit">Open</button>
      </form>
      {workflowId ? (
        <WorkflowView client={client} route={route} workflowId={workflowId} />
      ) : (
        <WorkflowRuns client={client} route={route} />
      )}
    </section>
  );
}

const RUN_STATES = ['running', 'succeeded', 'failed', 'cancelled'] as const;

function WorkflowRuns({ client, route }: Pick<ScreenProps, 'client' | 'route'>) {
  const q = route.query;
  const state = RUN_STATES.find((s) => s === q.get('state'));
  const tags = q.getAll('tag');
  const filters = {
    state,
    name: q.get('name') ?? undefined,
    from: q.get('from') ?? undefined,
    to: q.get('to') ?? undefined,
    tag: tags,
  };
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens[tokens.length - 1];
  const runs = usePoll(
    () =>
      client.workflowsPage({
        limit: 50,
        ...(state ? { state } : {}),
        ...(filters.name ? { name: filters.name } : {}),
        ...(filters.from ? { from: fromLocalInput(filters.from) } : {}),
        ...(filters.to ? { to: fromLocalInput(filters.to) } : {}),
        ...(tags.length ? { tag: tags } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    [q.toString(), pageToken],
    { everyMs: 2000, maxMs: 10_000, keep: true },
  );
  const set = (k: keyof typeof filters, value: string | string[]) => {
    setTokens([]);
    go('/workflows', { ...filters, [k]: value });
  };
  const list: WorkflowSummary[] = runs.data?.workflows ?? [];
  return (
    <>
      <form class="filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <label>
          State{' '}
          <select value={state ?? ''} onChange={(e) => set('state', e.currentTarget.value)}>
            <option value="">any</option>
            {RUN_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Name <FilterInput value={filters.name ?? ''} onCommit={(v) => set('name', v)} />
        </label>
        <label>
          Tags{' '}
          <FilterInput
            placeholder="team:data, env:prod"
            value={tags.join(', ')}
            onCommit={(v) => set('tag', parseTagInput(v))}
          />
        </label>
        <label>
          From{' '}
          <input
            type="datetime-local"
            value={filters.from ?? ''}
            onChange={(e) => set('from', e.currentTarget.value)}
          />
        </label>
        <label>
          To{' '}
          <input
            type="datetime-local"
            value={filters.to ?? ''}
            onChange={(e) => set('to', e.currentTarget.value)}
          />
        </label>
      </form>
      <ErrorBanner error={runs.error} />
      <div class="table-wrap">
        <table class="workflow-runs">
          <caption class="sr-only">Workflow runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">State</th>
              <th scope="col">Tags</th>
              <th scope="col">Nodes</th>
              <th scope="col">Created</th>
              <th scope="col">Finished</th>
            </tr>
          </thead>
          <tbody>
            {list.map((w) => (
              <tr key={w.id}>
                <td>
                  <a href={href(`/workflows/${w.id}`)}>{w.name}</a>
                  <div class="sub">
                    <code>{w.id}</code>
                  </div>
                </td>
                <td>
                  <Badge state={w.state} /> {w.paused ? <Badge state="paused" /> : null}
                </td>
                <td>{tagsText(w.tags)}</td>
                <td>{w.nodeCount}</td>
                <td>{when(w.createdAt)}</td>
                <td>{when(w.finishedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {runs.data && list.length === 0 ? <p class="sub">No runs match.</p> : null}
      <Pager label="Pages of runs" tokens={tokens} setTokens={setTokens} next={runs.data?.nextPageToken} />
    </>
  );
}
