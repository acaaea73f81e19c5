/** One route of either API, as the generated operations table lists it. */
export interface OperationInfo {
  api: 'task' | 'job';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path syntax: `/v1/jobs/{id}`. */
  path: string;
  summary: string;
  pathParams: readonly string[];
  queryParams: readonly string[];
  body: boolean;
}
