import createClient, { type Client } from 'openapi-fetch';
import {
  DschedApiError,
  DschedConfigError,
  errorFromResponse,
  PageTokenError,
  retryAfterMs,
} from './errors.ts';
import type { components as JobComponents, paths as JobPaths } from './generated/job-api.ts';
import { OPERATIONS, type OperationId } from './generated/operations.ts';
import type { components as TaskComponents, paths as TaskPaths } from './generated/task-api.ts';
import { PageIterator } from './paging.ts';
import { type Credentials, type RetryOptions, retryingFetch } from './transport.ts';

// The hand-written layer over the generated types: base URLs, credentials, retries, typed errors
// and paging iterators. Every method is one route; `taskApi` and `jobApi` are the typed
// openapi-fetch clients underneath, for a route that has no method here yet (a regenerated
// document brings its types at once), and `call(operationId)` reaches any route by its id.

export type Task = TaskComponents['schemas']['Task'];
export type Tenant = TaskComponents['schemas']['Tenant'];
export type OccurrencePreview = TaskComponents['schemas']['OccurrencePreview'];
export type Occurrence = TaskComponents['schemas']['Occurrence'];
export type Job = JobComponents['schemas']['Job'];
export type Workflow = TaskComponents['schemas']['Workflow'];
export type WorkflowNode = TaskComponents['schemas']['WorkflowNode'];
export type SubmitWorkflowRequest = NonNullable<
  TaskPaths['/v1/workflows']['post']['requestBody']
>['content']['application/json'];
export type WorkflowNodesQuery = NonNullable<
  TaskPaths['/v1/workflows/{id}/nodes']['get']['parameters']['query']
>;
export type CreateTaskRequest = NonNullable<
  TaskPaths['/v1/tasks']['post']['requestBody']
>['content']['application/json'];
export type PatchTaskRequest = NonNullable<
  TaskPaths['/v1/tasks/{id}']['patch']['requestBody']
>['content']['application/json'];
export type SchedulePreviewRequest = NonNullable<
  TaskPaths['/v1/schedules/preview']['post']['requestBody']
>['content']['application/json'];
export type ScheduleParse = TaskComponents['schemas']['ScheduleParse'];
export type ApplyResult = TaskComponents['schemas']['ApplyResult'];
export type ApplyTasksRequest = NonNullable<
  TaskPaths['/v1/tasks:apply']['post']['requestBody']
>['content']['application/json'];
export type ScheduleParseRequest = NonNullable<
  TaskPaths['/v1/schedules/parse']['post']['requestBody']
>['content']['application/json'];
export type CreateTenantRequest = NonNullable<
  TaskPaths['/v1/admin/tenants']['post']['requestBody']
>['content']['application/json'];
export type PatchTenantRequest = NonNullable<
  TaskPaths['/v1/admin/tenants/{id}']['patch']['requestBody']
>['content']['application/json'];
export type JobListQuery = NonNullable<JobPaths['/v1/jobs']['get']['parameters']['query']>;
export type TaskListQuery = NonNullable<TaskPaths['/v1/tasks']['get']['parameters']['query']>;
export type DlqQuery = NonNullable<JobPaths['/v1/dlq']['get']['parameters']['query']>;
export type WorkflowListQuery = NonNullable<TaskPaths['/v1/workflows']['get']['parameters']['query']>;
export type WorkflowSummary = TaskComponents['schemas']['WorkflowSummary'];
/** A bulk operation (docs/bulk-operations.md); `Operation` elsewhere names an OpenAPI operation. */
export type BulkOperation = TaskComponents['schemas']['Operation'];
export type StartOperationRequest = NonNullable<
  TaskPaths['/v1/operations']['post']['requestBody']
>['content']['application/json'];
export type OperationListQuery = NonNullable<TaskPaths['/v1/operations']['get']['parameters']['query']>;
export type RunsQuery = NonNullable<JobPaths['/v1/tasks/{id}/runs']['get']['parameters']['query']>;

export interface DschedClientOptions extends Credentials, RetryOptions {
  /** task-api's base URL, e.g. http://127.0.0.1:8080 */
  taskApi?: string | undefined;
  /** job-api's base URL, e.g. http://127.0.0.1:8081 */
  jobApi?: string | undefined;
  fetch?: typeof fetch;
  userAgent?: string;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

async function unwrap<T>(promise: Promise<Result<T>>, method: string): Promise<T> {
  const { data, error, response } = await promise;
  if (response.ok) return data as T;
  const init = { retryAfterMs: retryAfterMs(response.headers), method, url: new URL(response.url).pathname };
  const err = new DschedApiError(response.status, error, init);
  if (err.code === 'invalid_argument' && err.details.some((d) => d.field === 'pageToken'))
    throw new PageTokenError(response.status, error, init);
  throw err;
}

export class DschedClient {
  /** The typed openapi-fetch client of task-api (tenant routes and /v1/admin). */
  readonly taskApi: Client<TaskPaths>;
  /** The typed openapi-fetch client of job-api. */
  readonly jobApi: Client<JobPaths>;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #urls: { task: string | undefined; job: string | undefined };

  constructor(options: DschedClientOptions) {
    this.#fetch = retryingFetch(options, options);
    this.#urls = { task: options.taskApi, job: options.jobApi };
    const make = <P extends {}>(api: 'task' | 'job') => {
      const baseUrl = this.#urls[api];
      return createClient<P>({
        baseUrl: baseUrl ?? 'http://unset.invalid',
        fetch: async (request) => {
          if (!baseUrl) {
            throw new DschedConfigError(
              api === 'task' ? 'taskApi' : 'jobApi',
              `no ${api}-api URL (DSCHED_${api.toUpperCase()}_API)`,
            );
          }
          return this.#fetch(request);
        },
      });
    };
    this.taskApi = make<TaskPaths>('task');
    this.jobApi = make<JobPaths>('job');
  }

  // task-api: tasks

  createTask(body: CreateTaskRequest): Promise<Task> {
    return unwrap(this.taskApi.POST('/v1/tasks', { body }), 'POST');
  }

  getTask(id: string): Promise<Task> {
    return unwrap(this.taskApi.GET('/v1/tasks/{id}', { params: { path: { id } } }), 'GET');
  }

  listTasks(query: TaskListQuery = {}) {
    return unwrap(this.taskApi.GET('/v1/tasks', { params: { query } }), 'GET');
  }

  /** Every task of the tenant (with every tag of `tag`, when given), oldest first, page by page. */
  tasks(query: TaskListQuery = {}): PageIterator<Task> {
    return new PageIterator(async (pageToken) => {
      const page = await this.listTasks({ ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.tasks, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  updateTask(id: string, patch: PatchTaskRequest, options: { ifMatch?: number } = {}): Promise<Task> {
    const headers = options.ifMatch !== undefined ? { 'if-match': `"${options.ifMatch}"` } : {};
    return unwrap(
      this.taskApi.PATCH('/v1/tasks/{id}', { params: { path: { id } }, body: patch, headers }),
      'PATCH',
    );
  }

  async deleteTask(id: string): Promise<void> {
    await unwrap(this.taskApi.DELETE('/v1/tasks/{id}', { params: { path: { id } } }), 'DELETE');
  }

  /** Pauses a task; the reason goes to task-api's log with the task and tenant ids. */
  pauseTask(id: string, options: { reason?: string } = {}): Promise<Task> {
    const body = options.reason ? { reason: options.reason } : undefined;
    return unwrap(
      this.taskApi.POST('/v1/tasks/{id}/pause', { params: { path: { id } }, ...(body ? { body } : {}) }),
      'POST',
    );
  }

  resumeTask(id: string, options: { reason?: string } = {}): Promise<Task> {
    const body = options.reason ? { reason: options.reason } : undefined;
    return unwrap(
      this.taskApi.POST('/v1/tasks/{id}/resume', { params: { path: { id } }, ...(body ? { body } : {}) }),
      'POST',
    );
  }

  /** Runs the task now. With an idempotency key, asking again answers the same job (and is retried). */
  triggerTask(id: string, options: { idempotencyKey?: string } = {}): Promise<{ jobId: string }> {
    const headers = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {};
    return unwrap(this.taskApi.POST('/v1/tasks/{id}/trigger', { params: { path: { id } }, headers }), 'POST');
  }

  backfillTask(id: string, range: { from: string; to: string }) {
    return unwrap(
      this.taskApi.POST('/v1/tasks/{id}/backfill', { params: { path: { id } }, body: range }),
      'POST',
    );
  }

  occurrences(id: string, query: { count?: number; from?: string } = {}): Promise<OccurrencePreview> {
    return unwrap(this.taskApi.GET('/v1/tasks/{id}/occurrences', { params: { path: { id }, query } }), 'GET');
  }

  /**
   * Schedules as code: the tenant's keyed tasks made what `body.tasks` says, in one transaction
   * (created, updated field by field, unchanged; `prune` deletes keyed tasks not listed).
   */
  applyTasks(body: ApplyTasksRequest): Promise<ApplyResult> {
    return unwrap(this.taskApi.POST('/v1/tasks:apply', { body }), 'POST');
  }

  /** A schedule in words read as a task would read it: the schedule, its sentence, its next fires. */
  parseSchedule(body: ScheduleParseRequest): Promise<ScheduleParse> {
    return unwrap(this.taskApi.POST('/v1/schedules/parse', { body }), 'POST');
  }

  previewSchedule(body: SchedulePreviewRequest): Promise<OccurrencePreview> {
    return unwrap(this.taskApi.POST('/v1/schedules/preview', { body }), 'POST');
  }

  auditTask(id: string, range: { from: string; to: string }) {
    return unwrap(
      this.taskApi.GET('/v1/tasks/{id}/audit', { params: { path: { id }, query: range } }),
      'GET',
    );
  }

  // task-api: workflows

  submitWorkflow(body: SubmitWorkflowRequest): Promise<Workflow> {
    return unwrap(this.taskApi.POST('/v1/workflows', { body }), 'POST');
  }

  workflowsPage(query: WorkflowListQuery = {}) {
    return unwrap(this.taskApi.GET('/v1/workflows', { params: { query } }), 'GET');
  }

  /** The tenant's workflow runs, newest first, live and archived: by state, name, time, tags. */
  workflows(query: WorkflowListQuery = {}): PageIterator<WorkflowSummary> {
    return new PageIterator(async (pageToken) => {
      const page = await this.workflowsPage({ ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.workflows, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  getWorkflow(id: string): Promise<Workflow> {
    return unwrap(this.taskApi.GET('/v1/workflows/{id}', { params: { path: { id } } }), 'GET');
  }

  workflowNodesPage(id: string, query: WorkflowNodesQuery = {}) {
    return unwrap(this.taskApi.GET('/v1/workflows/{id}/nodes', { params: { path: { id }, query } }), 'GET');
  }

  /** A workflow's nodes in id order, optionally in one state. */
  workflowNodes(id: string, query: WorkflowNodesQuery = {}): PageIterator<WorkflowNode> {
    return new PageIterator(async (pageToken) => {
      const page = await this.workflowNodesPage(id, { ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.nodes, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  /** A small workflow whole (up to 500 nodes): its nodes and [parent, child] dependencies, to draw. */
  workflowGraph(id: string) {
    return unwrap(this.taskApi.GET('/v1/workflows/{id}/graph', { params: { path: { id } } }), 'GET');
  }

  cancelWorkflow(id: string): Promise<Workflow> {
    return unwrap(this.taskApi.POST('/v1/workflows/{id}/cancel', { params: { path: { id } } }), 'POST');
  }

  pauseWorkflow(id: string): Promise<Workflow> {
    return unwrap(this.taskApi.POST('/v1/workflows/{id}/pause', { params: { path: { id } } }), 'POST');
  }

  resumeWorkflow(id: string): Promise<Workflow> {
    return unwrap(this.taskApi.POST('/v1/workflows/{id}/resume', { params: { path: { id } } }), 'POST');
  }

  /** Re-runs a dead node and its descendants that did not succeed. */
  /** Signals a wait node: it succeeds with `payload` as its output (409 when it is not waiting). */
  signalWorkflowNode(id: string, nodeId: string, payload?: unknown): Promise<WorkflowNode> {
    return unwrap(
      this.taskApi.POST('/v1/workflows/{id}/nodes/{nodeId}/signal', {
        params: { path: { id, nodeId } },
        body: payload === undefined ? {} : { payload },
      }),
      'POST',
    );
  }

  retryWorkflowNode(id: string, nodeId: string): Promise<Workflow> {
    return unwrap(
      this.taskApi.POST('/v1/workflows/{id}/nodes/{nodeId}/retry', { params: { path: { id, nodeId } } }),
      'POST',
    );
  }

  // task-api: operators

  createTenant(body: CreateTenantRequest) {
    return unwrap(this.taskApi.POST('/v1/admin/tenants', { body }), 'POST');
  }

  getTenant(id: string): Promise<Tenant> {
    return unwrap(this.taskApi.GET('/v1/admin/tenants/{id}', { params: { path: { id } } }), 'GET');
  }

  updateTenant(id: string, patch: PatchTenantRequest): Promise<Tenant> {
    return unwrap(
      this.taskApi.PATCH('/v1/admin/tenants/{id}', { params: { path: { id } }, body: patch }),
      'PATCH',
    );
  }

  rotateKey(id: string) {
    return unwrap(this.taskApi.POST('/v1/admin/tenants/{id}/keys', { params: { path: { id } } }), 'POST');
  }

  // job-api

  getJob(id: string): Promise<Job> {
    return unwrap(this.jobApi.GET('/v1/jobs/{id}', { params: { path: { id } } }), 'GET');
  }

  runsPage(taskId: string, query: RunsQuery = {}) {
    return unwrap(this.jobApi.GET('/v1/tasks/{id}/runs', { params: { path: { id: taskId }, query } }), 'GET');
  }

  /** A task's runs, newest first, live and archived together. */
  runs(taskId: string, query: RunsQuery = {}): PageIterator<Job> {
    return new PageIterator(async (pageToken) => {
      const page = await this.runsPage(taskId, { ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.runs, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  jobsPage(query: JobListQuery = {}) {
    return unwrap(this.jobApi.GET('/v1/jobs', { params: { query } }), 'GET');
  }

  /** The tenant's jobs by state and time range, newest first. */
  jobs(query: JobListQuery = {}): PageIterator<Job> {
    return new PageIterator(async (pageToken) => {
      const page = await this.jobsPage({ ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.jobs, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  dlqPage(query: DlqQuery = {}) {
    return unwrap(this.jobApi.GET('/v1/dlq', { params: { query } }), 'GET');
  }

  /** The dead-letter queue, newest first. */
  dlq(query: DlqQuery = {}): PageIterator<Job> {
    return new PageIterator(async (pageToken) => {
      const page = await this.dlqPage({ ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.jobs, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  cancelJob(id: string): Promise<Job> {
    return unwrap(this.jobApi.POST('/v1/jobs/{id}/cancel', { params: { path: { id } }, body: {} }), 'POST');
  }

  retryJob(id: string): Promise<Job> {
    return unwrap(this.jobApi.POST('/v1/jobs/{id}/retry', { params: { path: { id } } }), 'POST');
  }

  redrive(body: { jobIds?: string[]; taskId?: string }) {
    return unwrap(this.jobApi.POST('/v1/dlq/retry', { body }), 'POST');
  }

  /**
   * Starts a bulk operation (202: the operation, running), or with `dryRun` only counts what it
   * would touch (200: `{dryRun, matched}`).
   */
  startOperation(body: StartOperationRequest): Promise<BulkOperation | { dryRun: true; matched: number }> {
    return unwrap(this.taskApi.POST('/v1/operations', { body }), 'POST');
  }

  getOperation(id: string): Promise<BulkOperation> {
    return unwrap(this.taskApi.GET('/v1/operations/{id}', { params: { path: { id } } }), 'GET');
  }

  operationsPage(query: OperationListQuery = {}) {
    return unwrap(this.taskApi.GET('/v1/operations', { params: { query } }), 'GET');
  }

  /** The tenant's bulk operations, newest first. */
  operations(query: OperationListQuery = {}): PageIterator<BulkOperation> {
    return new PageIterator(async (pageToken) => {
      const page = await this.operationsPage({ ...query, ...(pageToken ? { pageToken } : {}) });
      return { items: page.operations, nextPageToken: page.nextPageToken };
    }, query.pageToken);
  }

  /** Asks a running bulk operation to stop before its next batch. */
  cancelOperation(id: string): Promise<BulkOperation> {
    return unwrap(this.taskApi.POST('/v1/operations/{id}/cancel', { params: { path: { id } } }), 'POST');
  }

  /**
   * Any route of either API by its operationId (the generated OPERATIONS table), with path and
   * query parameters by name and a JSON body. Answers the body as received (undefined for 204).
   */
  async call(
    operationId: OperationId,
    input: { params?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<unknown> {
    const op = OPERATIONS[operationId];
    const base = this.#urls[op.api];
    if (!base)
      throw new DschedConfigError(
        `${op.api}Api`,
        `no ${op.api}-api URL (DSCHED_${op.api.toUpperCase()}_API)`,
      );
    const params = { ...input.params };
    let path: string = op.path;
    for (const name of op.pathParams) {
      const value = params[name];
      if (value === undefined)
        throw new DschedConfigError(name, `${operationId} needs the path parameter ${name}`);
      path = path.replace(`{${name}}`, encodeURIComponent(value));
      delete params[name];
    }
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const headers = new Headers(input.headers);
    if (input.body !== undefined) headers.set('content-type', 'application/json');
    const response = await this.#fetch(
      new Request(url, {
        method: op.method,
        headers,
        ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
      }),
    );
    if (!response.ok) throw await errorFromResponse(response, op.method);
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  }
}

export function createDschedClient(options: DschedClientOptions): DschedClient {
  return new DschedClient(options);
}
