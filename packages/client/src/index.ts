export * from './client.ts';
export * from './errors.ts';
export type { components as JobApiComponents, paths as JobApiPaths } from './generated/job-api.ts';
export { OPERATIONS, type OperationId } from './generated/operations.ts';
export type { components as TaskApiComponents, paths as TaskApiPaths } from './generated/task-api.ts';
export type { OperationInfo } from './operation-info.ts';
export * from './paging.ts';
export { isIdempotent, type RetryOptions } from './transport.ts';
export * from './webhook.ts';
