// A node's output and its children's inputs (docs/workflows.md "Parent outputs"). A node's output
// is its response body, capped, kept as JSON text: the body itself when it is JSON, else the body as
// a JSON string. A node that asks for `inputs: "parents"` is called with its parents' outputs beside
// its own body; when they do not fit in one request (too many parents, or too many bytes), it is
// called with the URL of a paged list of them instead. Either way the call's body is what is signed.

/** The default cap on a node's kept output (EXECUTOR_MAX_OUTPUT_BYTES). */
export const DEFAULT_NODE_OUTPUT_BYTES = 256 * 1024;

/** Past this many parents a node is sent the paged URL of its parents, whatever their sizes. */
export const MAX_INLINE_PARENTS = 1000;

/**
 * The JSON text kept for a response body: the body when it parses as JSON, otherwise the body as a
 * JSON string (a body cut at the cap is not JSON, and is kept as the string it starts with).
 */
export function nodeOutputJson(body: string): string {
  if (body.length === 0) return '""';
  try {
    JSON.parse(body);
    return body;
  } catch {
    return JSON.stringify(body);
  }
}

/** The bytes the inline form adds around the node's own body and the outputs: `{"parents":{…},"body":}` and per parent `"id":,`. */
export function inlineInputsBytes(
  bodyJson: string,
  parents: { nodeId: string; outputBytes: number }[],
): number {
  let bytes = 24 + Buffer.byteLength(bodyJson);
  for (const p of parents) bytes += p.nodeId.length + 4 + (p.outputBytes || 4);
  return bytes;
}

/**
 * The call body of a node with `inputs: "parents"` whose parents fit: `{"parents": {nodeId: output},
 * "body": body}`, built from the stored JSON texts without parsing them (a missing output is null).
 * Parents in node id order, so every attempt sends the same bytes.
 */
export function inlineInputsBody(
  body: unknown,
  outputs: { nodeId: string; output: string | null }[],
): string {
  const sorted = [...outputs].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  const parents = sorted.map((p) => `${JSON.stringify(p.nodeId)}:${p.output ?? 'null'}`).join(',');
  return `{"parents":{${parents}},"body":${JSON.stringify(body ?? null)}}`;
}

/** The call body of a fan-in whose parents do not fit: where to page through them, and how many. */
export function pagedInputsBody(body: unknown, parentsUrl: string, parentCount: number): string {
  return JSON.stringify({ parentsUrl, parentCount, body: body ?? null });
}

/** task-api's paged list of a node's parents with their outputs. */
export function nodeParentsUrl(taskApiUrl: string, workflowId: string, nodeId: string): string {
  return `${taskApiUrl.replace(/\/+$/, '')}/v1/workflows/${workflowId}/nodes/${encodeURIComponent(nodeId)}/parents`;
}
