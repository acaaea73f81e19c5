import {
  DschedError,
  type NodeRecord,
  notFound,
  type SecretsKeyring,
  secretsEqual,
  signalToken,
  signalTokenMatches,
  storedSignalToken,
} from '@dsched/domain';
import type { SignalRequest, WorkflowHistory, WorkflowStore } from '../ports.ts';

// Signals to wait nodes (docs/workflows.md "Signals", D45): through the key's route or the node's
// signal URL, whose token task-api derives from the secrets keyring (crypto/signal-token.ts) and
// shows on the node while it has not ended.

/** The largest signal body: its payload becomes the node's output (413 past it). */
export const MAX_SIGNAL_BYTES = 64 * 1024;

/**
 * Signals a wait node and answers the node as it now is: 404 unknown, 409 not waiting (a run moved
 * to history included, when the caller's key says whose it is: it has ended, like any finished run).
 */
export async function signalNode(
  deps: { workflows: WorkflowStore; history?: WorkflowHistory },
  req: SignalRequest,
): Promise<NodeRecord> {
  const signalled = await deps.workflows.signal(req);
  if (signalled.result === 'not_found') {
    if (deps.history && (await isArchived(deps.history, req))) {
      throw new DschedError('conflict', 'the node takes no signal: its run has ended and moved to history', {
        details: [{ field: 'id', issue: 'archived' }],
      });
    }
    throw notFound('node');
  }
  if (signalled.result === 'conflict') {
    throw new DschedError('conflict', `the node takes no signal: ${signalled.issue}`, {
      details: [{ field: 'nodeId', issue: signalled.issue }],
    });
  }
  const node = await deps.workflows.getNode(req.workflowId, req.nodeId);
  if (!node) throw notFound('node');
  return node;
}

/**
 * Whether the signal's run is in history, by the caller's right to know: the key's tenant owns it,
 * or the URL's token is the node's (its job is in the archived node; no hash is kept there). A
 * token that is not the node's learns nothing: 404 as for a run that never was.
 */
async function isArchived(history: WorkflowHistory, req: SignalRequest): Promise<boolean> {
  if (req.tenantId !== undefined) return (await history.get(req.tenantId, req.workflowId)) !== null;
  if (!req.tokenMatches) return false;
  const node = await history.node(req.workflowId, req.nodeId);
  return node?.jobId != null && req.tokenMatches(null, node.jobId);
}

/**
 * Whether a URL's token is the node's: compared with the stored hash in constant time; a node
 * stored without one (a scheduled run's, started where the keyring is not held; a node in history)
 * against its token under each key of the keyring (the current one, or one kept after a rotation).
 */
export function tokenChecker(
  keyring: SecretsKeyring,
  token: string,
  workflowId: string,
  nodeId: string,
): (storedHash: Buffer | null, jobId: string) => boolean {
  return (storedHash, jobId) =>
    storedHash
      ? signalTokenMatches(token, storedHash)
      : [keyring.current.key, ...keyring.byId.values()].some((key) =>
          secretsEqual(token, signalToken(key, { workflowId, nodeId, jobId })),
        );
}

/** The node with its signal URL, when it is a wait node that has not ended. */
export function withSignalUrl(
  node: NodeRecord,
  workflowId: string,
  keyring: SecretsKeyring,
  baseUrl: string,
): NodeRecord {
  if (!node.signal) return node;
  const ids = { workflowId, nodeId: node.nodeId, jobId: node.signal.jobId };
  const token = node.signal.hash
    ? storedSignalToken(keyring, ids, node.signal.hash)
    : signalToken(keyring.current.key, ids);
  if (!token) return node;
  return {
    ...node,
    signalUrl: `${baseUrl}/v1/workflows/${workflowId}/nodes/${encodeURIComponent(node.nodeId)}/signal/${token}`,
  };
}
