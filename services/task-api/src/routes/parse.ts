import { isId, notFound } from '@dsched/domain';
import { zodToDschedError } from '@dsched/runtime';
import type { z } from 'zod';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw zodToDschedError(result.error);
  return result.data;
}

/** A path id that is not even an id cannot name a resource: 404, as for any unknown id. */
export function parseId(params: unknown): string {
  const id = (params as { id?: string }).id ?? '';
  if (!isId(id)) throw notFound('resource');
  return id;
}
