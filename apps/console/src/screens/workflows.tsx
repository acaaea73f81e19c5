import type { WorkflowNode, WorkflowSummary } from '@dsched/client/browser';
import { NODE_STATES } from '@dsched/domain/decisions/workflow-nodes';
import { useState } from 'preact/hooks';
import { Dag } from '../dag.tsx';
import { fromLocalInput, parseTagInput, tagsText, when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go, href } from '../router.ts';
import { Badge, ErrorBanner, Notice, usePoll } from '../ui.tsx';

// The runs list (GET /v1/workflows: live and archived runs newest first, filtered by state, name,
// tags and creation time, every filter in the URL so a view can be saved or shared), and a workflow
// by id: its state, the count of nodes in each state, its nodes page by page (filtered by state in
// the URL), its DAG drawn when it has at most 500 nodes, re-run from a node that did not succeed.
// Polled every 2 s.

const DAG_MAX_NODES = 500;

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
    2000,
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
          Name <input value={filters.name ?? ''} onChange={(e) => set('name', e.currentTarget.value)} />
        </label>
        <label>
          Tags{' '}
          <input
            placeholder="team:data, env:prod"
            value={tags.join(', ')}
            onChange={(e) => set('tag', parseTagInput(e.currentTarget.value))}
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

/** Previous and Next over a keyset list: the tokens of the pages walked so far, the last one shown. */
function Pager(props: {
  label: string;
  tokens: string[];
  setTokens: (tokens: string[]) => void;
  next: string | undefined;
}) {
  const { tokens, setTokens, next } = props;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" disabled={tokens.length === 0} onClick={() => setTokens(tokens.slice(0, -1))}>
        Previous
      </button>
      <button type="button" disabled={!next} onClick={() => next && setTokens([...tokens, next])}>
        Next
      </button>
    </nav>
  );
}

function WorkflowView({
  client,
  route,
  workflowId,
}: Pick<ScreenProps, 'client' | 'route'> & { workflowId: string }) {
  const stateFilter = NODE_STATES.find((s) => s === route.query.get('state'));
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens[tokens.length - 1];
  const wf = usePoll(() => client.getWorkflow(workflowId), [workflowId], 2000);
  const nodes = usePoll(
    () =>
      client.workflowNodesPage(workflowId, {
        limit: 100,
        ...(stateFilter ? { state: stateFilter } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    [workflowId, stateFilter, pageToken],
    2000,
  );
  const small = (wf.data?.nodeCount ?? Number.POSITIVE_INFINITY) <= DAG_MAX_NODES;
  const graph = usePoll(
    async () => (small ? client.workflowGraph(workflowId) : undefined),
    [workflowId, small],
    2000,
  );
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const w = wf.data;
  if (!w) return <ErrorBanner error={wf.error} />;
  const rerun = async (n: WorkflowNode) => {
    try {
      await client.retryWorkflowNode(w.id, n.id);
      setNotice(`Re-running from node ${n.id}.`);
      setError(undefined);
      await Promise.all([wf.reload(), nodes.reload()]);
    } catch (e) {
      setError(e);
    }
  };
  const signal = async (n: WorkflowNode) => {
    try {
      await client.signalWorkflowNode(w.id, n.id);
      setNotice(`Signalled node ${n.id}.`);
      setError(undefined);
      await Promise.all([wf.reload(), nodes.reload()]);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <h2>
        {w.name} <Badge state={w.state} /> {w.paused ? <Badge state="paused" /> : null}
      </h2>
      <p class="sub">
        {w.nodeCount} nodes, {w.edgeCount} edges, {w.failurePolicy}; created {when(w.createdAt)}
        {w.finishedAt ? `, finished ${when(w.finishedAt)}` : ''}
      </p>
      <ul class="counts" aria-label="Nodes by state">
        {NODE_STATES.map((s) => (
          <li key={s}>
            <a
              href={href(`/workflows/${w.id}`, { state: stateFilter === s ? undefined : s })}
              aria-current={stateFilter === s ? 'true' : undefined}
            >
              <Badge state={s} /> <strong>{w.nodes[s] ?? 0}</strong>
            </a>
          </li>
        ))}
      </ul>
      {graph.data ? (
        <Dag nodes={graph.data.nodes} edges={graph.data.edges as [string, string][]} />
      ) : !small ? (
        <p class="sub">
          {w.nodeCount} nodes: too many to draw ({DAG_MAX_NODES} at most); the table below pages through them.
        </p>
      ) : null}
      <Notice text={notice} />
      <ErrorBanner error={error ?? nodes.error ?? graph.error} />
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Nodes{stateFilter ? ` in state ${stateFilter}` : ''}</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">State</th>
              <th scope="col">Attempt</th>
              <th scope="col">Trigger</th>
              <th scope="col">Finished</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {nodes.data?.nodes.map((n) => (
              <tr key={n.id}>
                <td>
                  <code>{n.id}</code>
                  {n.kind && n.kind !== 'call' ? (
                    <div class="sub node-kind">
                      {n.kind}
                      {n.wakeAt ? ` until ${when(n.wakeAt)}` : ''}
                      {n.map
                        ? ` over ${n.map.over}: ${n.map.made}${n.map.count !== undefined ? ` of ${n.map.count}` : ''} items made`
                        : ''}
                    </div>
                  ) : null}
                  {n.signalUrl ? (
                    <div class="sub">
                      signal URL (no key needed, works once): <code class="signal-url">{n.signalUrl}</code>
                    </div>
                  ) : null}
                  {n.jobId ? (
                    <div class="sub">
                      <a href={href(`/runs/${n.jobId}`)}>its job</a>
                    </div>
                  ) : null}
                </td>
                <td>
                  <Badge state={n.state} />
                </td>
                <td>{n.attempt}</td>
                <td>{n.trigger}</td>
                <td>{when(n.finishedAt)}</td>
                <td>
                  {['dead', 'upstream_failed', 'cancelled', 'skipped'].includes(n.state) ? (
                    <button type="button" onClick={() => rerun(n)}>
                      Re-run from here
                    </button>
                  ) : null}
                  {n.kind === 'wait' && n.state === 'pending' && w.state === 'running' ? (
                    <button type="button" onClick={() => signal(n)}>
                      Signal
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager label="Pages of nodes" tokens={tokens} setTokens={setTokens} next={nodes.data?.nextPageToken} />
    </>
  );
}
