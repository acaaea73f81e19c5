import { DschedError } from '@dsched/domain';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBody, UNKNOWN_FIELD } from './http-errors.ts';
import { strictRequest } from './request-schema.ts';

// The OpenAPI 3.1 document of an API, generated from the zod schemas its routes validate with.
//
// To document a route: export a `defineRoute({...})` beside its handler, naming the same zod
// schemas the handler parses with, and add it in the service's app.ts with one line:
//
//   // routes/jobs.ts
//   export const getJobRoute = defineRoute({
//     method: 'get', path: '/v1/jobs/{id}', summary: 'One job, live or archived', tags: ['jobs'],
//     auth: 'tenant', params: idParamsSchema,
//     responses: { 200: { description: 'the job', schema: jobViewSchema }, 404: NOT_FOUND },
//   });
//   // app.ts
//   openapi.add(getJobRoute);
//
// Request schemas are converted as their input type (defaults make a field optional), response
// schemas as their output type. Schemas with `.meta({ id })` become shared components. Request
// schemas are documented as they are enforced: strict (`additionalProperties: false` on every
// object, see request-schema.ts); a route that declares no query or no body refuses any
// (refuseUndeclaredInput below).

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
}

export interface RouteDoc {
  method: HttpMethod;
  /** OpenAPI path syntax: `/v1/jobs/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** Who may call it: a tenant's API key, the operator token, or anyone. */
  auth: 'tenant' | 'admin' | 'none';
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out (an empty POST is valid). */
  bodyOptional?: boolean;
  responses: Record<number, ResponseDoc>;
}

export function defineRoute(route: RouteDoc): RouteDoc {
  return route;
}

/** A 400 with the field named, the 404 of an unknown id, the 401 of a missing key. */
export const STANDARD_ERRORS = {
  400: { description: 'invalid_argument: the details name the field' },
  401: { description: 'unauthenticated: missing or unknown API key' },
  404: { description: 'not_found (also for another tenant’s id)' },
} satisfies Record<number, ResponseDoc>;

/** What a route that reads history answers while Cassandra cannot be reached (storeUnavailable). */
export const HISTORY_UNAVAILABLE: ResponseDoc = {
  description:
    'internal, details [{"field": "(history)", "issue": "unavailable"}]: job history (Cassandra) is unreachable right now; retry after Retry-After seconds',
};

/** An admin route called with a credential that is not the operator token. */
const FORBIDDEN: ResponseDoc = { description: 'permission_denied: not the operator token' };

/** What an address past its failed authentications gets (auth-throttle.ts). */
const THROTTLED: ResponseDoc = {
  description: 'resource_exhausted: too many failed authentications from this address (Retry-After)',
};

type JsonSchema = Record<string, unknown>;

/** `get /v1/tasks/{id}/runs` → `getV1TasksIdRuns`; `post /v1/tasks:apply` → `postV1TasksApply`. */
function operationIdOf(r: RouteDoc): string {
  return `${r.method}${r.path
    .replace(/[{}]/g, '')
    .replace(/[/:](\w)/g, (_m, c: string) => c.toUpperCase())
    .replace(/\W/g, '')}`;
}

export class OpenApiDocument {
  readonly #info: { title: string; version: string; description?: string };
  readonly #routes: RouteDoc[] = [];
  readonly #errorSchema: z.ZodType | undefined;

  constructor(
    info: { title: string; version: string; description?: string },
    options: { errorSchema?: z.ZodType } = {},
  ) {
    this.#info = info;
    this.#errorSchema = options.errorSchema;
  }

  add(...routes: (RouteDoc | RouteDoc[])[]): this {
    for (const r of routes.flat()) {
      if (this.#routes.some((x) => x.method === r.method && x.path === r.path))
        throw new Error(`OpenAPI: ${r.method.toUpperCase()} ${r.path} added twice`);
      this.#routes.push(r);
    }
    return this;
  }

  get routes(): readonly RouteDoc[] {
    return this.#routes;
  }

  /**
   * OpenAPI links from a create (`POST /v1/tasks` → 201 with `id`) to every operation under
   * `/v1/tasks/{id}`, the new id passed on: clients and a stateful fuzzer learn from the document
   * which calls a created resource feeds.
   */
  #linksFrom(create: RouteDoc): Record<string, JsonSchema> {
    if (create.method !== 'post' || create.path.includes('{')) return {};
    const links: Record<string, JsonSchema> = {};
    for (const r of this.#routes) {
      const param = new RegExp(`^${create.path}/\\{(\\w+)\\}(/[^{}]*)?$`).exec(r.path)?.[1];
      if (!param) continue;
      const operationId = operationIdOf(r);
      links[operationId] = { operationId, parameters: { [param]: '$response.body#/id' } };
    }
    return links;
  }

  toJSON(): JsonSchema {
    const components: Record<string, JsonSchema> = {};
    const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
      const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
      // Shared schemas (meta id) arrive under $defs: hoist them to components and point there.
      const json = JSON.parse(
        JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/'),
      ) as JsonSchema;
      const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
      for (const [id, def] of Object.entries(defs)) components[id] = def;
      delete json.$defs;
      delete json.$schema;
      return json;
    };
    const paths: Record<string, Record<string, JsonSchema>> = {};
    for (const r of this.#routes) {
      const parameters: JsonSchema[] = [];
      const addParams = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
        if (!schema) return;
        const json = convert(schema, 'input');
        const props = (json.properties ?? {}) as Record<string, JsonSchema>;
        const required = new Set((json.required as string[] | undefined) ?? []);
        for (const [name, s] of Object.entries(props)) {
          const { description, ...rest } = s;
          parameters.push({
            name,
            in: where,
            required: where === 'path' || required.has(name),
            ...(description ? { description } : {}),
            schema: rest,
          });
        }
      };
      addParams(r.params, 'path');
      addParams(r.query && strictRequest(r.query), 'query');
      const responses: Record<string, JsonSchema> = {};
      // Every authenticated route answers 401 to a missing or wrong credential, and 429 to an
      // address past its failed authentications, whether or not its entry says so.
      const declared: Record<number, ResponseDoc> =
        r.auth === 'none'
          ? r.responses
          : {
              401: STANDARD_ERRORS[401],
              // The admin routes tell a tenant's key (403) from no credential (401).
              ...(r.auth === 'admin' ? ({ 403: FORBIDDEN } as Record<number, ResponseDoc>) : {}),
              ...r.responses,
              429: r.responses[429] ?? THROTTLED,
            };
      for (const [status, res] of Object.entries(declared)) {
        const schema = res.schema ?? (Number(status) >= 400 ? this.#errorSchema : undefined);
        const links = status === '201' ? this.#linksFrom(r) : {};
        responses[status] = {
          description: res.description,
          ...(schema ? { content: { 'application/json': { schema: convert(schema, 'output') } } } : {}),
          ...(Object.keys(links).length ? { links } : {}),
        };
      }
      const op: JsonSchema = {
        operationId: operationIdOf(r),
        summary: r.summary,
        ...(r.description ? { description: r.description } : {}),
        ...(r.tags ? { tags: r.tags } : {}),
        ...(r.auth === 'none'
          ? { security: [] }
          : { security: [{ [r.auth === 'admin' ? 'adminToken' : 'apiKey']: [] }] }),
        ...(parameters.length ? { parameters } : {}),
        ...(r.body
          ? {
              requestBody: {
                required: !r.bodyOptional,
                content: { 'application/json': { schema: convert(strictRequest(r.body), 'input') } },
              },
            }
          : {}),
        responses,
      };
      paths[r.path] ??= {};
      paths[r.path]![r.method] = op;
    }
    return {
      openapi: '3.1.0',
      info: this.#info,
      paths,
      components: {
        schemas: components,
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'a tenant API key (dsk_...)' },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'the operator token, DSCHED_ADMIN_TOKEN',
          },
        },
      },
    };
  }
}

/**
 * A route whose document declares no query refuses any query parameter, and one that declares no
 * body refuses a body with fields: a typo sent to `POST /v1/tasks/{id}/pause?dryRun=1` is named,
 * not ignored. Routes that declare them validate them strictly in their handlers (parseWith).
 * Routes outside the document (/healthz, /metrics, /docs) are left alone. Call after every route
 * was added to the document.
 */
export function refuseUndeclaredInput(app: FastifyInstance, doc: OpenApiDocument): void {
  const declared = new Map(
    // fastify's form of the path: `{id}` is `:id`, and a literal colon (`/v1/tasks:apply`) is `::`.
    doc.routes.map((r) => [
      `${r.method.toUpperCase()} ${r.path.replace(/:/g, '::').replace(/\{(\w+)\}/g, ':$1')}`,
      r,
    ]),
  );
  app.addHook('preValidation', async (request) => {
    const route = declared.get(`${request.method} ${request.routeOptions.url}`);
    if (!route) return;
    const details: { field: string; issue: string }[] = [];
    if (!route.query) {
      for (const key of Object.keys((request.query as object | undefined) ?? {}))
        details.push({ field: key, issue: UNKNOWN_FIELD });
    }
    const body: unknown = request.body;
    // The document says the body is required: a request without one is refused here, not read
    // as `{}` (an empty PATCH once answered 200 though its document requires a body).
    if (route.body && !route.bodyOptional && (body === undefined || body === ''))
      details.push({ field: '(body)', issue: 'this route takes a JSON body' });
    if (!route.body && body !== undefined && body !== '') {
      if (body !== null && typeof body === 'object' && !Array.isArray(body))
        for (const key of Object.keys(body)) details.push({ field: key, issue: UNKNOWN_FIELD });
      else details.push({ field: '(body)', issue: 'this route takes no body' });
    }
    if (details.length === 0) return;
    const message = details.map((d) => `${d.field}: ${d.issue}`).join('; ');
    throw new DschedError('invalid_argument', message, { details });
  });
}

/**
 * A documented path called with a method it does not declare answers 405 with `Allow` (RFC 9110
 * 15.5.6), not the 404 of an unknown path: a client, or a fuzzer reading the document, learns
 * that the resource exists and which methods it takes. Decided in onRequest, before the body is
 * read, so a body-carrying method such as QUERY gets the 405 rather than a content-type 400.
 * Call after every route was added to the document.
 */
export function answerUndeclaredMethods(app: FastifyInstance, doc: OpenApiDocument): void {
  const byPath = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const r of doc.routes) {
    const entry = byPath.get(r.path) ?? {
      pattern: new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
      methods: new Set<string>(),
    };
    entry.methods.add(r.method.toUpperCase());
    if (r.method === 'get') entry.methods.add('HEAD'); // fastify answers HEAD for every GET
    byPath.set(r.path, entry);
  }
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...byPath.values()].find((e) => e.pattern.test(path))?.methods;
    if (!allowed || allowed.has(request.method)) return;
    const message = `${request.method} is not a method of ${path}; it takes ${[...allowed].join(', ')}`;
    return reply
      .status(405)
      .header('allow', [...allowed].join(', '))
      .send(
        errorBody(
          new DschedError('invalid_argument', message, { details: [{ field: '(method)', issue: message }] }),
        ),
      );
  });
}

/**
 * Serves the document at /openapi.json and a browsable page at /docs. The page's scripts and
 * styles come from the swagger-ui-dist package inside @fastify/swagger-ui: nothing is fetched from
 * a CDN, so /docs works offline and behind a strict egress policy. Call after every route was added.
 */
export function serveOpenApi(app: FastifyInstance, doc: OpenApiDocument): void {
  const document = doc.toJSON();
  app.get('/openapi.json', { logLevel: 'warn' }, async () => document);
  // @fastify/swagger in static mode only hands our document to the UI plugin.
  void app.register(swagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  void app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json', docExpansion: 'list', deepLinking: true },
    staticCSP: true,
    logLevel: 'warn',
  });
}
