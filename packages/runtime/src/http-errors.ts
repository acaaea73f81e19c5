import { DschedError, type ErrorCode } from '@dsched/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';

// The one table from error code to HTTP status (docs/api.md), and the body every error has.
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  failed_precondition: 412,
  resource_exhausted: 429,
  internal: 500,
};

/** An error's status: the code's, except an `internal` error that passes (a store unreachable): 503. */
export function httpStatus(err: DschedError): number {
  return err.code === 'internal' && err.unavailable ? 503 : HTTP_STATUS[err.code];
}

/** The issue of each key a strict request schema refused (see request-schema.ts). */
export const UNKNOWN_FIELD = 'unknown field';

export function zodToDschedError(err: ZodError, prefix?: string): DschedError {
  const field = (path: PropertyKey[]) => [prefix, ...path.map(String)].filter(Boolean).join('.') || '(body)';
  // One detail per refused key, named with its path (`target.timeoutMS`), like any other field.
  const all = err.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: field([...issue.path, key]), issue: UNKNOWN_FIELD }))
      : [{ field: field(issue.path), issue: issue.message }],
  );
  // A schema's pattern and the refinement behind it may say the same thing of one field: once.
  const details = all.filter(
    (d, i) => all.findIndex((e) => e.field === d.field && e.issue === d.issue) === i,
  );
  const message = details.map((d) => `${d.field}: ${d.issue}`).join('; ');
  return new DschedError('invalid_argument', message, { details });
}

export function errorBody(err: DschedError) {
  return { error: { code: err.code, message: err.message, details: err.details } };
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    let err: DschedError;
    if (error instanceof DschedError) err = error;
    else if (error instanceof ZodError) err = zodToDschedError(error);
    else if ('validation' in error && error.validation) {
      err = new DschedError('invalid_argument', error.message, {
        details: [{ field: '(request)', issue: error.message }],
      });
    } else if ('statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500) {
      // fastify's own client errors: malformed JSON, body too large, wrong content type.
      const code: ErrorCode =
        error.statusCode === 413
          ? 'resource_exhausted'
          : error.statusCode === 404
            ? 'not_found'
            : 'invalid_argument';
      err = new DschedError(code, error.message, { details: [{ field: '(body)', issue: error.message }] });
      reply.status(error.statusCode);
      return reply.send(errorBody(err));
    } else {
      request.log.error({ err: error }, 'unhandled error');
      err = new DschedError('internal', 'internal error');
    }
    if (err.unavailable) request.log.warn({ err: err.cause ?? err }, err.message);
    if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
    return reply.status(httpStatus(err)).send(errorBody(err));
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody(new DschedError('not_found', `no route ${request.method} ${request.url}`)));
  });
}
