import { isId, notFound } from '@dsched/domain';
import type { z } from 'zod';
import { zodToDschedError } from './http-errors.ts';

/** A request body checked against its schema; a bad one is a 400 naming each field. */
export function parseRequestBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw zodToDschedError(result.error);
  return result.data;
}

/** A path id that is not even an id cannot name a resource: 404, as for any unknown id. */
export function parsePathId(params: unknown, what = 'resource'): string {
  const id = (params as { id?: string }).id ?? '';
  if (!isId(id)) throw notFound(what);
  return id;
}
