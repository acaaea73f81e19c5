import type { WorkflowNode } from '@dsched/client/browser';
import { NODE_STATES } from '@dsched/domain/decisions/workflow-nodes';
import { useMemo, useState } from 'preact/hooks';
import { Dag } from '../dag.tsx';
import { when } from '../format.ts';
import { criticalPath, type Edge } from '../graph.ts';
import type { ScreenProps } from '../main.tsx';
import { href } from '../router.ts';
import { Timeline } from '../timeline.tsx';
import { Badge, ErrorBanner, Notice, Pager, usePoll } from '../ui.tsx';

// One workflow run, live: its state and node counts by state (each a filter), its DAG and its
// timeline (up to 5,000 nodes: GET /v1/workflows/{id}/graph), its nodes paged 100 at a time,
// re-run from a node that did not succeed, signal a waiting wait node.
// Live, cheaply: the run's summary (one row) is polled every second after a change, backing off to
// 8 s while nothing changes, and not at all once the run has ended or the tab is hidden; the graph
// and the nodes page are read again only when the summary changed (a node count, the state, the
// paused flag or updatedAt), so a 5,000-node run is not re-read every second.

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);
/** As the graph route answers (GRAPH_MAX_NODES, GRAPH_MAX_EDGES in the domain). */
const DRAWN_MAX_NODES = 5000;
const DRAWN_MAX_EDGES = 20_000;

export function WorkflowView({
  client,
  route,
  workflowId,
}: Pick<ScreenProps, 'client' | 'route'> & { workflowId: string }) {
  const stateFilter = NODE_STATES.find((s) => s === route.query.get('state'));
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens[tokens.length - 1];
  const wf = usePoll(() => client.getWorkflow(workflowId), [workflowId], {
    everyMs: 1000,
    maxMs: 8000,
    until: (w) => ENDED.has(w.state),
  });
  const s = wf.data;
  // What changes when any node changes: the reads below follow it, not a clock.
  const changed = s ? JSON.stringify([s.state, s.paused, s.nodes, s.updatedAt, s.finishedAt]) : '';
  const nodes = usePoll(
    () =>
      client.workflowNodesPage(workflowId, {
        limit: 100,
        ...(stateFilter ? { state: stateFilter } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    [workflowId, stateFilter, pageToken, changed],
    { everyMs: 0, keep: true },
  );
  const drawable = s !== undefined && s.nodeCount <= DRAWN_MAX_NODES && s.edgeCount <= DRAWN_MAX_EDGES;
  const graph = usePoll(
    async () => (drawable ? client.workflowGraph(workflowId) : undefined),
    [workflowId, drawable, changed],
    { everyMs: 0, keep: true },
  );
  const edges = (graph.data?.edges ?? []) as unknown as Edge[];
  const critical = useMemo(() => {
    const g = graph.data;
    if (!g) return [];
    const now = Date.now();
    const ends = new Map(
      g.nodes.map((n) => [
        n.id,
        n.finishedAt ? Date.parse(n.finishedAt) : n.state === 'running' ? now : undefined,
      ]),
    );
    return criticalPath(
      g.nodes.map((n) => n.id),
      edges,
      (id) => ends.get(id),
    );
  }, [graph.data]);
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
        <>
          <h3>Graph</h3>
          <Dag workflowId={w.id} nodes={graph.data.nodes} edges={edges} critical={critical} />
          <h3>Timeline</h3>
          <Timeline client={client} workflow={w} nodes={graph.data.nodes} edges={edges} critical={critical} />
        </>
      ) : !drawable ? (
        <p class="sub">
          {w.nodeCount} nodes: too many to draw ({DRAWN_MAX_NODES} at most); the table below pages through
          them.
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
