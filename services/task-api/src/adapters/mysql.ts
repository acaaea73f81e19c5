import type { SecretsKeyring, Tenant, TraceBirth } from '@dsched/domain';
import { partitionOf } from '@dsched/domain';
import { cancelOperation, getOperation, listOperations, startOperation } from '@dsched/mysql/operations';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import {
  applyTaskPlan,
  backfillTask,
  changeTask,
  getTask,
  insertTaskWithinQuota,
  listTasks,
  triggerTask,
} from '@dsched/mysql/tasks';
import {
  findTenantByKeyHash,
  getTenant,
  insertTenant,
  rotateApiKey,
  takeRateToken,
  updateTenant,
} from '@dsched/mysql/tenants';
import {
  cancelWorkflow,
  getWorkflow,
  getWorkflowNode,
  insertWorkflow,
  isWorkflowLive,
  listLiveWorkflows,
  listWorkflowEdges,
  listWorkflowNodeParents,
  listWorkflowNodes,
  retryWorkflowNode,
  setWorkflowPaused,
  signalWaitNode,
} from '@dsched/mysql/workflows';
import type {
  BulkOperations,
  DatabaseClock,
  RateLimiter,
  TaskRepository,
  TaskRuns,
  TenantDirectory,
  WorkflowStore,
} from '../ports.ts';

export function mysqlTenantDirectory(
  pool: Pool,
  options: { rotationGraceS: number; keyring: SecretsKeyring },
): TenantDirectory {
  return {
    create: (tenant, key) => insertTenant(pool, tenant, key, { keyring: options.keyring }),
    get: (id) => getTenant(pool, id),
    update: (id, patch) => updateTenant(pool, id, patch),
    rotateKey: (id, key) => rotateApiKey(pool, id, key, options.rotationGraceS),
    findByKeyHash: (hash): Promise<Tenant | null> => findTenantByKeyHash(pool, hash),
  };
}

/**
 * The instant a test steps time to, used instead of the database clock by the statements and
 * decisions that read the time (a task change, the rate limit, the API's clock); null, and always
 * in production, means the database clock (invariant 1).
 */
export type SteppedClock = () => Date | null;

const DATABASE_CLOCK: SteppedClock = () => null;

export function mysqlTaskRepository(
  pool: Pool,
  options: { partitions: number; at?: SteppedClock },
): TaskRepository {
  const at = options.at ?? DATABASE_CLOCK;
  return {
    insert: (task) => insertTaskWithinQuota(pool, task, partitionOf(task.id, options.partitions)),
    get: (tenantId, id) => getTask(pool, tenantId, id),
    list: (tenantId, page) => listTasks(pool, tenantId, page),
    change: (tenantId, id, decide) => changeTask(pool, tenantId, id, decide, at()),
    apply: (tenantId, keys, how) =>
      applyTaskPlan(pool, {
        tenantId,
        keys,
        partitionOf: (id) => partitionOf(id, options.partitions),
        ...how,
      }),
  };
}

export function mysqlTaskRuns(pool: Pool, born?: TraceBirth): TaskRuns {
  return {
    trigger: (tenantId, taskId, discriminator) => triggerTask(pool, tenantId, taskId, discriminator, born),
    backfill: (tenantId, taskId, plan) => backfillTask(pool, tenantId, taskId, plan, born),
  };
}

export function mysqlRateLimiter(pool: Pool, at: SteppedClock = DATABASE_CLOCK): RateLimiter {
  return (tenantId, perSecond) => takeRateToken(pool, tenantId, perSecond, at());
}

export function mysqlClock(pool: Pool, at: SteppedClock = DATABASE_CLOCK): DatabaseClock {
  return () => databaseNow(pool, at());
}

export function mysqlWorkflowStore(pool: Pool, born?: TraceBirth): WorkflowStore {
  return {
    insert: (plan) =>
      insertWorkflow(pool, {
        ...plan,
        trace: born?.({ id: plan.id, workflowId: plan.id, kind: 'workflow' }) ?? null,
      }),
    get: (tenantId, id) => getWorkflow(pool, tenantId, id),
    list: (q) => listLiveWorkflows(pool, q),
    isLive: (tenantId, id) => isWorkflowLive(pool, tenantId, id),
    listNodes: (workflowId, page) => listWorkflowNodes(pool, workflowId, page),
    listEdges: (workflowId, limit) => listWorkflowEdges(pool, workflowId, limit),
    listParents: (workflowId, nodeId, page) => listWorkflowNodeParents(pool, workflowId, nodeId, page),
    getNode: (workflowId, nodeId) => getWorkflowNode(pool, workflowId, nodeId),
    signal: (req) => signalWaitNode(pool, req),
    cancel: (tenantId, id) => cancelWorkflow(pool, tenantId, id),
    setPaused: (tenantId, id, paused) => setWorkflowPaused(pool, tenantId, id, paused),
    retryNode: (tenantId, id, nodeId) => retryWorkflowNode(pool, tenantId, id, nodeId),
  };
}

export function mysqlBulkOperations(pool: Pool): BulkOperations {
  return {
    start: (args) => startOperation(pool, args),
    get: (tenantId, id) => getOperation(pool, tenantId, id),
    list: (tenantId, beforeId, limit) => listOperations(pool, tenantId, beforeId, limit),
    cancel: (tenantId, id) => cancelOperation(pool, tenantId, id),
  };
}
