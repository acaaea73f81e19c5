import {
  type CreateOperationRequest,
  conflict,
  decodePageToken,
  encodePageToken,
  isId,
  newId,
  notFound,
  type Operation,
  operationFilter,
  type PageQuery,
  type Tenant,
} from '@dsched/domain';
import type { BulkOperations } from '../ports.ts';

// Bulk operations (docs/bulk-operations.md): a request is checked (a filter is required, and must
// suit its action), counted, and stored for the reconciler to carry out; a dry run only counts.

export async function startBulkOperation(
  operations: BulkOperations,
  tenant: Tenant,
  req: CreateOperationRequest,
): Promise<{ matched: number; operation: Operation | null }> {
  const filter = operationFilter(req.action, req.filter);
  return operations.start({
    id: newId(),
    tenantId: tenant.id,
    action: req.action,
    filter,
    dryRun: req.dryRun === true,
  });
}

export async function readOperation(
  operations: BulkOperations,
  tenant: Tenant,
  id: string,
): Promise<Operation> {
  const op = await operations.get(tenant.id, id);
  if (!op) throw notFound('operation');
  return op;
}

/**
 * A running operation stops before its next batch; asking again answers the same. One that
 * succeeded or failed cannot be cancelled (409).
 */
export async function cancelBulkOperation(
  operations: BulkOperations,
  tenant: Tenant,
  id: string,
): Promise<Operation> {
  const op = await operations.cancel(tenant.id, id);
  if (!op) throw notFound('operation');
  if (op.state === 'succeeded' || op.state === 'failed') throw conflict(`the operation already ${op.state}`);
  return op;
}

const listQuery = (tenant: Tenant): PageQuery => ({
  list: 'GET /v1/operations',
  filters: { tenant: tenant.id },
});

const readKey = ([id, ...rest]: unknown[]): string | undefined =>
  rest.length === 0 && typeof id === 'string' && isId(id) ? id : undefined;

/** A page of the tenant's operations, newest first, with the next page's token when more remain. */
export async function listOperationPage(
  operations: BulkOperations,
  tenant: Tenant,
  q: { limit: number; pageToken?: string | undefined },
): Promise<{ operations: Operation[]; nextPageToken?: string }> {
  const query = listQuery(tenant);
  const before = q.pageToken ? decodePageToken(q.pageToken, query, readKey) : null;
  const rows = await operations.list(tenant.id, before, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  if (rows.length <= q.limit || !last) return { operations: page };
  return { operations: page, nextPageToken: encodePageToken(query, [last.id]) };
}
