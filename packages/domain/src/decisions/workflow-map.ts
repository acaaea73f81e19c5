import type { FieldIssue } from '../errors.ts';
import type { MapSpec, Target } from '../model.ts';
import { MAX_WORKFLOW_NODES } from './workflow-graph.ts';

// Map nodes (docs/workflows.md "Map nodes", D49): a node that, when its turn comes, reads one
// parent's output, a JSON array, and makes one item node per element: a call of the map's target
// with the element as its body and its index in a header. The item nodes are ordinary call nodes
// (their own job, so their own retries and one Idempotency-Key), each the map node's parent, so
// the map node waits on them like a fan-in. The storage side is packages/mysql's map-expand.ts;
// these are its pure decisions.

/** Between a map node's id and an item's index: `resize~0042`. Ids keep to URL-safe characters. */
export const MAP_ITEM_SEPARATOR = '~';
/** The header that tells an item's call its index in the array. */
export const MAP_INDEX_HEADER = 'Dsched-Map-Index';
/** Item nodes made per transaction: the walk's budget of children (D33). */
export const MAP_SLICE_ITEMS = 2_000;
/**
 * A map node's id leaves room for its items' suffix within the 100 characters of a node id: `~`
 * and up to 6 digits (an index under 1,000,000; the node cap is 100,000).
 */
export const MAX_MAP_NODE_ID_LENGTH = 100 - 1 - 6;

/** One node of a submission, as far as the map checks need it. */
export interface MapCheckNode {
  id: string;
  kind: string;
  dependsOn: readonly string[];
  map?: Pick<MapSpec, 'over' | 'maxItems'> | undefined;
}

/**
 * The checks of a submission's map nodes, beyond each node's own fields (zod): `over` names one of
 * the node's parents; the node's id leaves room for its items' ids; no other node's id looks like
 * one of its items'; and the nodes plus every map's `maxItems` stay within the node cap, since
 * items are nodes. Returns the issues, each naming its field (empty: none).
 */
export function mapNodeIssues(nodes: readonly MapCheckNode[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const maps: string[] = [];
  let items = 0;
  nodes.forEach((n, i) => {
    if (n.kind !== 'map' || !n.map) return;
    maps.push(`${n.id}${MAP_ITEM_SEPARATOR}`);
    items += n.map.maxItems;
    if (!n.dependsOn.includes(n.map.over)) {
      issues.push({
        field: `nodes.${i}.map.over`,
        issue: `"${n.map.over}" is not one of this node's parents (dependsOn)`,
      });
    }
    if (n.id.length > MAX_MAP_NODE_ID_LENGTH) {
      issues.push({
        field: `nodes.${i}.id`,
        issue: `a map node's id is at most ${MAX_MAP_NODE_ID_LENGTH} characters`,
      });
    }
    if (nodes.length + items > MAX_WORKFLOW_NODES) {
      issues.push({
        field: `nodes.${i}.map.maxItems`,
        issue: `the run's ${nodes.length} nodes and its maps' items (maxItems) come to ${nodes.length + items}, over ${MAX_WORKFLOW_NODES}`,
      });
    }
  });
  if (maps.length === 0) return issues;
  nodes.forEach((n, i) => {
    const prefix = maps.find((p) => n.id.startsWith(p));
    if (prefix) {
      issues.push({
        field: `nodes.${i}.id`,
        issue: `ids starting "${prefix}" are the items of map node "${prefix.slice(0, -1)}"`,
      });
    }
  });
  return issues;
}

/**
 * An item's node id: the map's, the separator, the index zero-padded to the width of the last
 * index, so the ids sort in index order (the node list, the parents page, the map's output).
 */
export function mapItemId(mapId: string, index: number, count: number): string {
  const width = String(Math.max(count - 1, 0)).length;
  return `${mapId}${MAP_ITEM_SEPARATOR}${String(index).padStart(width, '0')}`;
}

/**
 * An item's call: the map's target with the item as its body and its index in a header. Stored in
 * the item node (and its job), so every attempt sends the same body under the same key.
 */
export function mapItemTarget(target: Target, item: unknown, index: number): Target {
  return { ...target, headers: { ...target.headers, [MAP_INDEX_HEADER]: String(index) }, body: item };
}

/** What the parent's output gave: the items to map, or why the map node fails. */
export type MapItems = { items: unknown[] } | { error: string };

/**
 * Reads the parent's output (JSON text, as stored; null when it left none) as the items of a map
 * node. Anything but a JSON array, or one longer than `maxItems`, fails the node with a message
 * that says which.
 */
export function readMapItems(output: string | null, over: string, maxItems: number): MapItems {
  if (output === null) return { error: `map over "${over}": it left no output (expected a JSON array)` };
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return { error: `map over "${over}": its output is not JSON (expected a JSON array)` };
  }
  if (!Array.isArray(value)) {
    const what = value === null ? 'null' : `${article(typeof value)} ${typeof value}`;
    return { error: `map over "${over}": its output is ${what}, not a JSON array` };
  }
  if (value.length > maxItems) {
    return { error: `map over "${over}": its output has ${value.length} items, over maxItems ${maxItems}` };
  }
  return { items: value };
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/** What a map node whose items all ended says when some did not succeed. */
export function mapItemsFailed(failed: number, count: number): string {
  return `${failed} of ${count} items did not succeed`;
}

/**
 * A succeeded map node's output: its items' outputs in index order (JSON text; null for an item
 * that left none) when they fit in `maxBytes`, else a reference to the paged list of its items.
 */
export function mapOutput(
  outputs: readonly (string | null)[] | null,
  count: number,
  itemsUrl: string,
): string {
  if (outputs === null) return JSON.stringify({ itemsUrl, count });
  return `[${outputs.map((o) => o ?? 'null').join(',')}]`;
}

/** Whether `count` item outputs totalling `bytes` fit a node output of `maxBytes` as one array. */
export function mapOutputFits(bytes: number, count: number, maxBytes: number): boolean {
  // Brackets, commas, and a `null` for each item without output, at most.
  return bytes + 2 + count * 5 <= maxBytes;
}
