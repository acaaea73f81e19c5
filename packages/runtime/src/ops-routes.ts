import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { TrustProxy } from './config.ts';
import type { Logger } from './logger.ts';
import { installRequestTracing } from './request-tracing.ts';

/** Resolves when every dependency answers; throws naming the one that does not. */
export type ReadinessCheck = () => Promise<void>;

// /healthz says the process runs; /readyz that its dependencies answer and it is not shutting
// down; /metrics is the Prometheus text of the process registry. Every request is counted by its
// route template (never the raw URL, which carries ids) and status code.
export function registerOpsRoutes(
  app: FastifyInstance,
  deps: { registry: Registry; ready: ReadinessCheck; isShuttingDown?: () => boolean },
): void {
  const requests = new Counter({
    name: 'dsched_http_requests_total',
    help: 'HTTP requests served, by route template and status code',
    labelNames: ['route', 'status'],
    registers: [deps.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    requests.inc({ route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) });
  });
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_req, reply) => {
    if (deps.isShuttingDown?.()) return reply.status(503).send({ status: 'shutting_down' });
    try {
      await deps.ready();
      return { status: 'ready' };
    } catch (err) {
      return reply.status(503).send({ status: 'not_ready', reason: (err as Error).message });
    }
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_req, reply) => {
    reply.header('content-type', deps.registry.contentType);
    return deps.registry.metrics();
  });
}

/** The small HTTP server the workers (scheduler, executor, reconciler, archiver) expose. */
export function buildOpsServer(deps: {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
}): FastifyInstance {
  const app = createHttpServer(deps.logger);
  registerOpsRoutes(app, deps);
  return app;
}

/** A fastify instance logging through the service's pino logger, with request ids. */
export function createHttpServer(
  logger: Logger,
  options: { bodyLimit?: number; trustProxy?: TrustProxy } = {},
): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // request.ip is then the client named by X-Forwarded-For, as far as the trusted hops go.
    trustProxy: fastifyTrustProxy(options.trustProxy),
    genReqId: () => crypto.randomUUID(),
    // Fastify answers 414 (a status no route documents) to a path parameter past 100 characters;
    // an id that long is then the route's to refuse (404: no such job, task or run), as any other.
    maxParamLength: 8192,
  }) as unknown as FastifyInstance;
  installRequestTracing(app);
  return app;
}

function fastifyTrustProxy(
  trust: TrustProxy | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === undefined || trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
