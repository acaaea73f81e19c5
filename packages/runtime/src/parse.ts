import { isId, notFound } from '@dsched/domain';
import type { z } from 'zod';
import { zodToDschedError } from './http-errors.ts';
import { strictRequest } from './request-schema.ts';

/**
 * Validates a body or a query string with its zod schema, made strict: a 400 names each bad field
 * and each unknown one. An absent body is an empty object; a `null` one is refused.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = strictRequest(schema).safeParse(value === undefined ? {} : value);
  if (!result.success) throw zodToDschedError(result.error);
  return result.data;
}

/** A path id that is not even an id cannot name a resource: 404, as for any unknown id. */
export function pathId(params: unknown, what: string): string {
  const id = (params as { id?: string }).id ?? '';
  if (!isId(id)) throw notFound(what);
  return id;
}
