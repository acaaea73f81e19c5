import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_NODE_BUCKET_SIZE,
  ARCHIVED_GRAPH_MAX_EDGES,
  ARCHIVED_GRAPH_MAX_NODES,
  archivedGraphFits,
  GRAPH_MAX_EDGES,
  GRAPH_MAX_NODES,
  graphFits,
  NodePlacement,
  nodeBucketCount,
  nodeRecordFromJson,
  workflowRecordFromJson,
} from '../src/decisions/workflow-history.ts';
import type { NodeState } from '../src/decisions/workflow-nodes.ts';

// Where history keeps a finished run's nodes: consecutive buckets in node id order, and per state.

describe('graphFits and archivedGraphFits', () => {
  it('answers a live run whole up to its limits, and keeps an archived one’s edges up to smaller ones', () => {
    expect(graphFits({ nodeCount: GRAPH_MAX_NODES, edgeCount: GRAPH_MAX_EDGES })).toBe(true);
    expect(graphFits({ nodeCount: GRAPH_MAX_NODES + 1, edgeCount: 0 })).toBe(false);
    expect(graphFits({ nodeCount: 2, edgeCount: GRAPH_MAX_EDGES + 1 })).toBe(false);
    expect(
      archivedGraphFits({ nodeCount: ARCHIVED_GRAPH_MAX_NODES, edgeCount: ARCHIVED_GRAPH_MAX_EDGES }),
    ).toBe(true);
    expect(archivedGraphFits({ nodeCount: ARCHIVED_GRAPH_MAX_NODES + 1, edgeCount: 0 })).toBe(false);
    expect(archivedGraphFits({ nodeCount: 2, edgeCount: ARCHIVED_GRAPH_MAX_EDGES + 1 })).toBe(false);
    // The console draws 5,000 nodes (issue 31); history keeps the small runs' edges only.
    expect(GRAPH_MAX_NODES).toBe(5000);
    expect(ARCHIVED_GRAPH_MAX_NODES).toBeLessThan(GRAPH_MAX_NODES);
  });
});

describe('NodePlacement', () => {
  it('fills buckets of consecutive nodes, and buckets of each state by rank within it', () => {
    const states: NodeState[] = Array.from({ length: 250 }, (_, i) => (i % 5 === 0 ? 'dead' : 'succeeded'));
    const placement = new NodePlacement();
    const places = states.map((s) => placement.place(s));
    expect(places.map((p) => p.bucket)).toEqual(
      Array.from({ length: 250 }, (_, i) => Math.floor(i / ARCHIVE_NODE_BUCKET_SIZE)),
    );
    const dead = places.filter((_, i) => states[i] === 'dead').map((p) => p.stateBucket);
    expect(dead).toEqual(Array(50).fill(0));
    const ok = places.filter((_, i) => states[i] === 'succeeded').map((p) => p.stateBucket);
    expect(ok).toEqual(Array.from({ length: 200 }, (_, i) => Math.floor(i / ARCHIVE_NODE_BUCKET_SIZE)));
  });

  it('places a run the same way every time (a repeated copy overwrites itself)', () => {
    const states: NodeState[] = ['succeeded', 'dead', 'skipped', 'succeeded', 'upstream_failed'];
    const once = new NodePlacement();
    const twice = new NodePlacement();
    expect(states.map((s) => once.place(s))).toEqual(states.map((s) => twice.place(s)));
  });

  it('counts buckets', () => {
    expect([0, 1, 100, 101, 100_000].map(nodeBucketCount)).toEqual([0, 1, 1, 2, 1000]);
  });
});

describe('history documents', () => {
  it('read back the records they were written from, dates included', () => {
    const node = {
      nodeId: 'a',
      state: 'succeeded' as const,
      attempt: 2,
      jobId: '01890000-0000-7000-8000-000000000000',
      trigger: 'all_success',
      inputs: 'none' as const,
      finishedAt: new Date('2026-01-02T03:04:05.678Z'),
      output: { x: [1, 'two'] },
    };
    expect(nodeRecordFromJson(JSON.stringify(node))).toEqual(node);
    const run = {
      id: 'r',
      name: 'n',
      state: 'failed' as const,
      paused: false,
      failurePolicy: 'continue' as const,
      maxParallel: null,
      nodeCount: 1,
      edgeCount: 0,
      deadlineAt: null,
      metadata: { team: 'etl' },
      tags: { team: 'data' },
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      updatedAt: new Date('2026-01-01T00:00:01.000Z'),
      finishedAt: new Date('2026-01-01T00:00:01.000Z'),
      nodes: { succeeded: 1 } as never,
    };
    expect(workflowRecordFromJson(JSON.stringify(run))).toEqual(run);
    // A run archived before tags existed has none.
    const { tags: _, ...untagged } = run;
    expect(workflowRecordFromJson(JSON.stringify(untagged))).toEqual({ ...untagged, tags: null });
  });
});
