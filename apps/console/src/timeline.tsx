import type { DschedClient, Workflow, WorkflowNode } from '@dsched/client/browser';
import { Fragment } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { duration, type Edge, layout, type NodeTimes, nodeTimes, spanPercent } from './graph.ts';
import { href } from './router.ts';
import { Badge } from './ui.tsx';

// A run's timeline: one row per node on one time axis (the run's creation to its end, or now),
// each row its wait (ready → first start, and the backoff between attempts), its attempts (a failed
// one red) and the critical path marked. Rows are in level order and windowed: only the ~15 rows
// in view (and a margin) are in the page, and only they read their job (GET /v1/jobs/{id}, four
// at a time, kept while the node's state and attempt stay the same), so a 5,000-node run costs
// what a 15-node one does. A row whose job is not read yet, or that has none, shows the span the
// graph implies: from its last parent's end (the run's start for a root) to its own end.

const ROW = 28;
const VISIBLE = 15;
const MARGIN = 5;
const NO_JOB = new Set(['waiting', 'skipped', 'upstream_failed']);

type Loaded = NodeTimes | 'none';

function useNodeJobs(client: DschedClient, nodes: WorkflowNode[]) {
  const cache = useRef(new Map<string, Loaded>());
  const asked = useRef(new Set<string>());
  const [, setVersion] = useState(0);
  const keyOf = (n: WorkflowNode) => `${n.jobId}:${n.state}:${n.attempt}`;
  const wanted = nodes.filter((n) => n.jobId && !NO_JOB.has(n.state));
  const missing = wanted.filter((n) => !asked.current.has(keyOf(n)));
  useEffect(() => {
    if (missing.length === 0) return;
    for (const n of missing) asked.current.add(keyOf(n));
    const queue = [...missing];
    const worker = async () => {
      for (let n = queue.shift(); n; n = queue.shift()) {
        let value: Loaded;
        try {
          value = nodeTimes(await client.getJob(n.jobId!));
        } catch {
          value = 'none';
        }
        cache.current.set(n.id, value);
        setVersion((v) => v + 1);
      }
    };
    void Promise.all([worker(), worker(), worker(), worker()]);
  }, [missing.map(keyOf).join(',')]);
  return (id: string) => cache.current.get(id);
}

export function Timeline(props: {
  client: DschedClient;
  workflow: Workflow;
  nodes: WorkflowNode[];
  edges: readonly Edge[];
  critical: readonly string[];
}) {
  const { workflow, nodes, edges } = props;
  const shape = `${workflow.id}:${nodes.length}:${edges.length}`;
  const { order, parents } = useMemo(() => {
    const lay = layout(
      nodes.map((n) => n.id),
      edges,
    );
    const ps = new Map<string, string[]>();
    for (const [p, c] of edges) ps.set(c, [...(ps.get(c) ?? []), p]);
    const ids = nodes.map((n) => n.id);
    ids.sort((a, b) => lay.depth.get(a)! - lay.depth.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
    return { order: ids, parents: ps };
  }, [shape]);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const onPath = useMemo(() => new Set(props.critical), [props.critical]);
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / ROW) - MARGIN);
  const last = Math.min(order.length, Math.ceil(top / ROW) + VISIBLE + MARGIN);
  const windowed = order.slice(first, last).map((id) => byId.get(id)!);
  const times = useNodeJobs(props.client, windowed);

  const from = Date.parse(workflow.createdAt);
  const now = Date.now();
  const to = Math.max(from + 1, workflow.finishedAt ? Date.parse(workflow.finishedAt) : now);
  const endOf = (id: string) => {
    const f = byId.get(id)?.finishedAt;
    return f ? Date.parse(f) : undefined;
  };
  const implied = (n: WorkflowNode): { ready: number; end: number | undefined } => {
    const ends = (parents.get(n.id) ?? []).map(endOf).filter((e): e is number => e !== undefined);
    return { ready: ends.length ? Math.max(...ends) : from, end: endOf(n.id) };
  };
  const pct = (a: number, b: number) => {
    const s = spanPercent(a, b, from, to);
    return { left: `${s.left}%`, width: `max(2px, ${s.width}%)` };
  };
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <div class="timeline-box">
      <div class="tl-head" aria-hidden="true">
        <span class="tl-name">Node</span>
        <span class="tl-axis">
          {ticks.map((t) => (
            <span key={t} class="tl-tick" style={{ left: `${t * 100}%` }}>
              +{duration(t * (to - from))}
            </span>
          ))}
        </span>
      </div>
      {/* A section: a named region the keyboard can scroll (focusable, as axe asks of a scroll box). */}
      <section
        class="tl-scroll"
        style={{ height: `${Math.min(order.length, VISIBLE) * ROW + 4}px` }}
        onScroll={(e) => setTop(e.currentTarget.scrollTop)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box the keyboard must reach
        tabIndex={0}
        aria-label={`Timeline of ${order.length} nodes, from the run's creation to ${workflow.finishedAt ? 'its end' : 'now'}; the critical path is ${props.critical.join(' → ') || 'not known yet'}`}
      >
        <ol class="tl-rows" style={{ height: `${order.length * ROW}px` }}>
          {windowed.map((n, i) => {
            const t = times(n.id);
            const loaded = t && t !== 'none' ? t : undefined;
            const guess = implied(n);
            const ready = loaded && n.kind !== 'sleep' && n.kind !== 'wait' ? loaded.ready : guess.ready;
            const attempts = loaded?.attempts ?? [];
            const end = loaded?.end ?? guess.end;
            const firstStart = attempts[0]?.start;
            const waited = (firstStart ?? end ?? now) - ready;
            const ran = attempts.reduce((sum, a) => sum + ((a.end ?? now) - a.start), 0);
            const critical = onPath.has(n.id);
            const words =
              `${n.state}; ready at +${duration(ready - from)}, waited ${duration(waited)}` +
              (attempts.length ? `, ran ${duration(ran)} in ${attempts.length} attempt(s)` : '') +
              (end ? `, ended at +${duration(end - from)}` : '') +
              (critical ? '; on the critical path' : '');
            return (
              <li
                key={n.id}
                class={`tl-row${critical ? ' critical' : ''}`}
                data-node={n.id}
                style={{ top: `${(first + i) * ROW}px` }}
              >
                <span class="tl-name">
                  {n.jobId && !NO_JOB.has(n.state) ? (
                    <a href={href(`/runs/${n.jobId}`)}>{n.id}</a>
                  ) : (
                    <code>{n.id}</code>
                  )}{' '}
                  <Badge state={n.state} />
                </span>
                <span class="tl-lane" title={words}>
                  <span class="sr-only">{words}</span>
                  {loaded ? (
                    <>
                      <span class="tl-wait" style={pct(ready, firstStart ?? end ?? now)} />
                      {attempts.map((a, k) => (
                        <Fragment key={a.attempt}>
                          {k > 0 ? (
                            <span class="tl-wait" style={pct(attempts[k - 1]!.end ?? a.start, a.start)} />
                          ) : null}
                          <span
                            class={`tl-run${a.ok ? '' : a.end ? ' tl-fail' : ' tl-live'}`}
                            data-attempt={a.attempt}
                            style={pct(a.start, a.end ?? now)}
                          />
                        </Fragment>
                      ))}
                    </>
                  ) : end ? (
                    <span class="tl-implied" style={pct(ready, end)} />
                  ) : null}
                </span>
              </li>
            );
          })}
        </ol>
      </section>
      <p class="sub tl-legend">
        <span class="tl-key tl-wait" /> waiting (ready, not started; backoff between attempts){' '}
        <span class="tl-key tl-run" /> an attempt <span class="tl-key tl-run tl-fail" /> a failed attempt{' '}
        <span class="tl-key crit" /> critical path (the chain of last-finishing parents)
      </p>
    </div>
  );
}
