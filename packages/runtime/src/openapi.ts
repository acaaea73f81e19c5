import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

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
// schemas as their output type. Schemas with `.meta({ id })` become shared components.

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

type JsonSchema = Record<string, unknown>;

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
      addParams(r.query, 'query');
      const responses: Record<string, JsonSchema> = {};
      for (const [status, res] of Object.entries(r.responses)) {
        const schema = res.schema ?? (Number(status) >= 400 ? this.#errorSchema : undefined);
        responses[status] = {
          description: res.description,
          ...(schema ? { content: { 'application/json': { schema: convert(schema, 'output') } } } : {}),
        };
      }
      const op: JsonSchema = {
        operationId: `${r.method}${r.path
          .replace(/[{}]/g, '')
          .replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase())
          .replace(/\W/g, '')}`,
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
                content: { 'application/json': { schema: convert(r.body, 'input') } },
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
