import type { Note } from '../harness/analyze.ts';
import type { SinkRecords } from '../sink/protocol.ts';

// The workflow scenario's graph and its judgement, pure: the same graph, sink records and node
// list give the same counts. workflow.ts drives the fleet and hands these what it saw.

export interface Graph {
  nodes: { id: string; dependsOn: string[]; profile: string }[];
  /** The node whose target fails its first two calls. */
  flaky: string;
}

export const CHAIN = 20;

/**
 * root → a fan-out of A nodes; B nodes with two `a` parents each (some also after the `b` before
 * them); C fan-ins of about B / C `b` parents each; a chain of 20 off the root; `join` after every
 * fan-in and the chain's end. Every parent comes earlier in the list, so it is a DAG; its depth is
 * the chain's, whatever N.
 */
export function workflowGraph(n: number): Graph {
  const a = Math.max(2, Math.floor(n / 100));
  const c = Math.max(1, Math.floor(n / 100));
  const b = n - 2 - CHAIN - a - c;
  if (b < 10) throw new Error(`--nodes ${n}: at least ${CHAIN + 16} nodes`);
  const nodes: Graph['nodes'] = [{ id: 'root', dependsOn: [], profile: 'fast' }];
  for (let i = 0; i < CHAIN; i++)
    nodes.push({ id: `chain${i}`, dependsOn: [i === 0 ? 'root' : `chain${i - 1}`], profile: 'work' });
  for (let i = 0; i < a; i++) nodes.push({ id: `a${i}`, dependsOn: ['root'], profile: 'fast' });
  const flaky = `b${Math.floor(b / 2)}`;
  for (let i = 0; i < b; i++) {
    const p1 = i % a;
    let p2 = (i * 7 + 3) % a;
    if (p2 === p1) p2 = (p1 + 1) % a;
    const parents = [`a${p1}`, `a${p2}`];
    if (i % 5 === 4) parents.push(`b${i - 1}`);
    const id = `b${i}`;
    const profile = id === flaky ? 'flaky' : i % 997 === 0 ? 'slow' : i % 10 === 0 ? 'work' : 'fast';
    nodes.push({ id, dependsOn: parents, profile });
  }
  for (let j = 0; j < c; j++) {
    const parents: string[] = [];
    for (let i = j; i < b; i += c) parents.push(`b${i}`);
    nodes.push({ id: `c${j}`, dependsOn: parents, profile: 'fast' });
  }
  nodes.push({
    id: 'join',
    dependsOn: [...Array.from({ length: c }, (_, j) => `c${j}`), `chain${CHAIN - 1}`],
    profile: 'fast',
  });
  return { nodes, flaky };
}

/** Calls of a node, from the sink's records. */
export interface NodeCalls {
  keys: Set<string>;
  calls: number;
  effects: number;
  attempts: number[];
  firstArrival: number;
  lastOkAnswer: number;
  /** Calls after the kill. */
  callsAfterKill: number;
}

/** The sink's records per node (the last path segment of a call is its node id). */
export function callsByNode(r: SinkRecords, killAt: number): Map<string, NodeCalls> {
  const by = new Map<string, NodeCalls>();
  for (let i = 0; i < r.key.length; i++) {
    const node = r.tail[i] ?? '';
    let c = by.get(node);
    if (!c) {
      c = {
        keys: new Set(),
        calls: 0,
        effects: 0,
        attempts: [],
        firstArrival: Number.POSITIVE_INFINITY,
        lastOkAnswer: 0,
        callsAfterKill: 0,
      };
      by.set(node, c);
    }
    const arrival = r.arrival[i] as number;
    const status = r.status[i] ?? 0;
    c.keys.add(r.key[i] ?? '');
    c.calls++;
    c.effects += r.effect[i] ?? 0;
    c.attempts.push(r.attempt[i] ?? 0);
    c.firstArrival = Math.min(c.firstArrival, arrival);
    if (status >= 200 && status < 300) c.lastOkAnswer = Math.max(c.lastOkAnswer, r.answeredAt[i] as number);
    if (arrival > killAt) c.callsAfterKill++;
  }
  return by;
}

/** A node as the API's node list shows it. */
export interface ApiNode {
  id: string;
  state: string;
  attempt: number;
  jobId?: string;
  finishedAt?: string;
}

export interface NodeVerdict {
  lost: number;
  doubleEffects: number;
  redeliveries: number;
  orderViolations: number;
  unknownCalls: number;
}

/**
 * Every node applied once under its own job's key, after its parents' last successful answer;
 * no call on a path that is no node's.
 */
export function judgeNodes(
  graph: Graph,
  calls: Map<string, NodeCalls>,
  nodes: Map<string, ApiNode>,
  note: Note,
): NodeVerdict {
  const v: NodeVerdict = { lost: 0, doubleEffects: 0, redeliveries: 0, orderViolations: 0, unknownCalls: 0 };
  for (const node of graph.nodes) {
    const c = calls.get(node.id);
    const job = nodes.get(node.id)?.jobId;
    if (!c || c.effects === 0) {
      v.lost++;
      note('lost', `${node.id}: ${c ? `${c.calls} calls, no effect` : 'never called'}`);
      continue;
    }
    const foreign = [...c.keys].filter((k) => k !== job);
    if (c.effects > 1 || foreign.length > 0) {
      v.doubleEffects += Math.max(c.effects - 1, foreign.length > 0 ? 1 : 0);
      note('double effect', `${node.id}: keys ${[...c.keys].join(', ')} (job ${job}), ${c.effects} effects`);
    }
    v.redeliveries += c.calls - c.effects - (node.id === graph.flaky ? 2 : 0);
    // A child's first call comes after every parent's last successful answer (the walk, once).
    for (const p of node.dependsOn) {
      const pc = calls.get(p);
      if (pc && c.firstArrival < pc.lastOkAnswer) {
        v.orderViolations++;
        note('child before parent', `${node.id} called before ${p} answered for the last time`);
      }
    }
  }
  const known = new Set(graph.nodes.map((x) => x.id));
  for (const [tail, c] of calls)
    if (!known.has(tail)) {
      v.unknownCalls += c.calls;
      note('unknown', `${c.calls} calls on /${tail}`);
    }
  return v;
}

export interface HeldVerdict {
  heldRerun: number;
  heldChildren: number;
  heldChildrenExtraCalls: number;
  heldChildrenEarly: number;
  heldChildrenDouble: number;
}

/**
 * The killed executor's held nodes (job ids read just before the kill): called again with their
 * key, their children applied once under one key, first called after the re-run's answer.
 */
export function judgeHeld(
  graph: Graph,
  heldJobs: ReadonlySet<string>,
  calls: Map<string, NodeCalls>,
  nodes: Map<string, ApiNode>,
  note: Note,
): HeldVerdict {
  const byJob = new Map<string, string>();
  for (const [id, x] of nodes) if (x.jobId) byJob.set(x.jobId, id);
  const children = new Map<string, string[]>();
  for (const node of graph.nodes)
    for (const p of node.dependsOn) children.set(p, [...(children.get(p) ?? []), node.id]);
  const v: HeldVerdict = {
    heldRerun: 0,
    heldChildren: 0,
    heldChildrenExtraCalls: 0,
    heldChildrenEarly: 0,
    heldChildrenDouble: 0,
  };
  const heldNodes = new Set(
    [...heldJobs].map((k) => byJob.get(k)).filter((x): x is string => x !== undefined),
  );
  for (const id of heldNodes) {
    // Called before the kill and again after it (a held job not called yet is just called later).
    const c = calls.get(id);
    if (!c || c.callsAfterKill === 0 || c.callsAfterKill === c.calls) continue;
    v.heldRerun++;
    for (const child of children.get(id) ?? []) {
      if (heldNodes.has(child)) continue;
      v.heldChildren++;
      const cc = calls.get(child);
      // Ran once: its job made once (one key, one effect), first called after the re-run parent's
      // last answer. Calls beyond one with that key are the child's own redeliveries (its lease
      // ran out on a loaded machine: at least once), counted apart.
      if (cc?.effects !== 1 || cc.keys.size !== 1) {
        v.heldChildrenDouble++;
        note(
          'held child',
          `${child} (child of re-run ${id}): ${cc?.effects ?? 0} effects, ${cc?.keys.size ?? 0} keys`,
        );
      }
      if (cc && cc.firstArrival < c.lastOkAnswer) {
        v.heldChildrenEarly++;
        note('held child', `${child} called before its re-run parent ${id} answered`);
      }
      v.heldChildrenExtraCalls += Math.max(0, (cc?.calls ?? 0) - 1 - (child === graph.flaky ? 2 : 0));
    }
  }
  return v;
}
