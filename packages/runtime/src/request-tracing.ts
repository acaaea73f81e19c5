import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentTracing } from './tracing.ts';

// A SERVER span per API request (HTTP semantic conventions), continuing the caller's
// `traceparent`: a tenant's trigger joins the tenant's trace, a target's heartbeat or completion
// joins the occurrence's (the target received its traceparent from the call). Installed only
// when tracing is on; the ops routes (health, readiness, metrics) are never traced.

const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

const spans = new WeakMap<FastifyRequest, { span: Span; ctx: Context }>();

export function installRequestTracing(app: FastifyInstance): void {
  const tracing = currentTracing();
  if (!tracing.enabled) return;
  app.addHook('onRequest', (req, _reply, done) => {
    const path = req.url.split('?', 1)[0]!;
    if (UNTRACED.has(path)) return done();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const route = req.routeOptions.url;
    const span = tracing.tracer.startSpan(
      route ? `${req.method} ${route}` : req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          ...(route ? { 'http.route': route } : {}),
          'url.path': path,
          'url.scheme': req.protocol,
          'client.address': req.ip,
        },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    spans.set(req, { span, ctx });
    context.with(ctx, done);
  });
  // The body was read between the hooks, in the socket's context: the handler runs in the span's.
  app.addHook('preHandler', (req, _reply, done) => {
    const entry = spans.get(req);
    if (!entry) return done();
    context.with(entry.ctx, done);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const entry = spans.get(req);
    if (entry) {
      entry.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end();
      spans.delete(req);
    }
    done();
  });
}

/** The active span's trace context of a request (undefined when not traced), to store with a job it makes. */
export function requestTraceParent(): { traceId: string; spanId: string; sampled: boolean } | undefined {
  const sc = trace.getSpanContext(context.active());
  return sc ? { traceId: sc.traceId, spanId: sc.spanId, sampled: (sc.traceFlags & 1) === 1 } : undefined;
}
