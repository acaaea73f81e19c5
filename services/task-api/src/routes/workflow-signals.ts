import {
  isId,
  NODE_ID,
  type NodeRecord,
  nodeView,
  notFound,
  type SecretsKeyring,
  SIGNAL_TOKEN,
  workflowNodeParamsSchema,
  workflowNodeViewSchema,
} from '@dsched/domain';
import { defineRoute, parseWith, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_SIGNAL_BYTES, signalNode, tokenChecker, withSignalUrl } from '../core/workflow-signals.ts';
import type { RateLimiter, TenantDirectory, WorkflowHistory, WorkflowStore } from '../ports.ts';
import { tenantGuard } from './tenant-guard.ts';

// Signals to wait nodes (docs/workflows.md "Signals"): with the tenant's key, or through the
// node's signal URL, which needs none (its token is in it), so an approval page or a third-party
// webhook can call it.

const signalBodySchema = z.strictObject({
  payload: z
    .unknown()
    .optional()
    .describe('becomes the node’s output, given to children with `inputs: "parents"`'),
});

const NOT_WAITING = {
  description:
    'conflict: the node takes no signal: not a wait node, not waiting yet (its parents have not ' +
    'finished), already ended (signalled, timed out, cancelled), or its run has ended; nothing changes',
};
const TOO_LARGE = { description: `resource_exhausted: the body is over ${MAX_SIGNAL_BYTES} bytes` };
const NODE = { description: 'the node, succeeded, its output the payload', schema: workflowNodeViewSchema };

export const workflowSignalRouteDocs = [
  defineRoute({
    method: 'post',
    path: '/v1/workflows/{id}/nodes/{nodeId}/signal',
    summary: 'Signal a wait node: it succeeds with the payload as its output',
    description:
      'Once: a second signal, one before the node waits, or one to an ended run answers 409 and ' +
      'changes nothing. A signal and the node’s timeout at the same instant end it once. Audited as ' +
      'the job’s attempt (who, when, from which address).',
    tags: ['workflows'],
    auth: 'tenant',
    params: workflowNodeParamsSchema,
    body: signalBodySchema,
    bodyOptional: true,
    responses: {
      200: NODE,
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      404: STANDARD_ERRORS[404],
      409: NOT_WAITING,
      413: TOO_LARGE,
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/workflows/{id}/nodes/{nodeId}/signal/{token}',
    summary: 'Signal a wait node through its signal URL (no API key: the token is in the URL)',
    description:
      'The URL is the node’s `signalUrl`. The JSON body, whatever its shape, becomes the node’s ' +
      'output (a third-party webhook’s body is kept as it is); no body, no output. Otherwise as ' +
      'the keyed route: once, 409 when the node is not waiting; 404 for a token that is not the node’s.',
    tags: ['workflows'],
    auth: 'none',
    params: workflowNodeParamsSchema.extend({ token: z.string() }),
    body: z.unknown(),
    bodyOptional: true,
    responses: { 200: NODE, 404: STANDARD_ERRORS[404], 409: NOT_WAITING, 413: TOO_LARGE },
  }),
];

/**
 * How a route shows a run's nodes: with the signal URL of each wait node not ended yet, on the
 * origin the request came to (or TASK_API_PUBLIC_URL).
 */
export function nodeViewWithSignal(
  deps: { signalKeys: SecretsKeyring; publicUrl?: string | undefined },
  request: FastifyRequest,
  workflowId: string,
): (node: NodeRecord) => Record<string, unknown> {
  const baseUrl = deps.publicUrl ?? `${request.protocol}://${request.host}`;
  return (node) => nodeView(withSignalUrl(node, workflowId, deps.signalKeys, baseUrl));
}

/** `key <prefix> from <address>`: the first 12 characters of a key are its public prefix. */
function keyedBy(request: FastifyRequest): string {
  const key = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return `key ${key.slice(0, 12)} from ${request.ip}`;
}

function payloadText(payload: unknown): string | null {
  return payload === undefined || payload === '' ? null : JSON.stringify(payload);
}

export function registerWorkflowSignalRoutes(
  app: FastifyInstance,
  deps: {
    workflows: WorkflowStore;
    history: WorkflowHistory;
    tenants: TenantDirectory;
    rateLimit: RateLimiter;
    signalKeys: SecretsKeyring;
    publicUrl?: string | undefined;
  },
): void {
  const tenantOf = tenantGuard(deps);

  app.post('/v1/workflows/:id/nodes/:nodeId/signal', { bodyLimit: MAX_SIGNAL_BYTES }, async (request) => {
    const tenant = await tenantOf(request);
    const { id, nodeId } = request.params as { id: string; nodeId: string };
    if (!isId(id) || !NODE_ID.test(nodeId)) throw notFound('node');
    const body = request.body === undefined ? {} : parseWith(signalBodySchema, request.body);
    const node = await signalNode(deps, {
      workflowId: id,
      nodeId,
      tenantId: tenant.id,
      payload: payloadText(body.payload),
      by: keyedBy(request),
    });
    return nodeView(node);
  });

  app.post(
    '/v1/workflows/:id/nodes/:nodeId/signal/:token',
    { bodyLimit: MAX_SIGNAL_BYTES },
    async (request) => {
      const { id, nodeId, token } = request.params as { id: string; nodeId: string; token: string };
      if (!isId(id) || !NODE_ID.test(nodeId) || !SIGNAL_TOKEN.test(token)) throw notFound('node');
      const node = await signalNode(deps, {
        workflowId: id,
        nodeId,
        tokenMatches: tokenChecker(deps.signalKeys, token, id, nodeId),
        payload: payloadText(request.body),
        by: `url from ${request.ip}`,
      });
      return nodeView(node);
    },
  );
}
