import type { PoolConnection } from 'mysql2/promise';
import { loadSql, withValues } from '../sql.ts';

// A run's nodes and edges, written by multi-row VALUES lists in batches: at submission
// (workflow-submit.ts) and when a map node makes its items (map-expand.ts). VALUES, not JSON_TABLE:
// vtgate refuses JSON_TABLE and routes each row of a VALUES list by its key (docs/sharding.md).

const NODES_INSERT = loadSql(import.meta.url, './nodes-insert.sql');
const EDGES_INSERT = loadSql(import.meta.url, './edges-insert.sql');

/**
 * The most bytes one batch statement carries: well under the smallest max_allowed_packet of the
 * servers we run on (16 MiB on MariaDB), and small enough that one statement of a 100,000-node
 * submission does not hold the server for long.
 */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;
const MAX_EDGES_PER_BATCH = 20_000;

/** A row of nodes-insert.sql, in its column order (23 values), and its size on the wire. */
export interface NodeRow {
  values: unknown[];
  bytes: number;
}

/** The rows of nodes-insert.sql, in batches of at most MAX_BATCH_BYTES. */
export async function insertNodeRows(conn: PoolConnection, rows: Iterable<NodeRow>): Promise<void> {
  let batch: unknown[][] = [];
  let bytes = 0;
  const flush = async () => {
    await conn.query(withValues(NODES_INSERT, batch.length, 23), batch.flat());
    batch = [];
    bytes = 0;
  };
  for (const row of rows) {
    if (bytes + row.bytes > MAX_BATCH_BYTES && batch.length > 0) await flush();
    batch.push(row.values);
    bytes += row.bytes;
  }
  if (batch.length > 0) await flush();
}

/** A node row's size: its target is most of it; the rest is small and bounded. */
export function nodeRowBytes(target: string): number {
  return target.length + 512;
}

/** A row of edges-insert.sql: (workflow_id, parent_id, child_id, partition). */
export type EdgeRow = [Buffer, string, string, number];

/** The rows of edges-insert.sql, in batches. */
export async function insertEdgeRows(conn: PoolConnection, edges: Iterable<EdgeRow>): Promise<void> {
  let batch: EdgeRow[] = [];
  const flush = async () => {
    await conn.query(withValues(EDGES_INSERT, batch.length, 4), batch.flat());
    batch = [];
  };
  for (const edge of edges) {
    batch.push(edge);
    if (batch.length >= MAX_EDGES_PER_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
}
