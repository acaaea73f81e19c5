// The client without webhook verification (which needs node:crypto): what a browser bundle, the
// console in apps/console, imports. Everything else is the same as the package's main entry.
export * from './client.ts';
export * from './errors.ts';
export type { components as JobApiComponents, paths as JobApiPaths } from './generated/job-api.ts';
export type { components as TaskApiComponents, paths as TaskApiPaths } from './generated/task-api.ts';
export * from './paging.ts';
