import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

// The web console (apps/console), served under /ui from its built files: one HTML page, one
// script and one stylesheet, no CDN. The page talks to this API on its own origin and to task-api
// at the URL /ui/config.json names (task-api allows this origin by TASK_API_CORS_ORIGINS).
// The files are built by the set-up (`pnpm console:build`, run by scripts/up.sh and
// scripts/test.sh); until then /ui answers 503 saying so.

export interface ConsoleOptions {
  /** task-api's URL as the browser reaches it. */
  taskApiUrl?: string | undefined;
  /** A trace's URL with `{traceId}` in it (CONSOLE_TRACE_URL): the run screen links each run's trace there. */
  traceUrl?: string | undefined;
  /** Where the built files are (default apps/console/dist of this checkout). */
  root?: string;
}

export const CONSOLE_DIST = fileURLToPath(new URL('../../../../apps/console/dist/', import.meta.url));

export function registerConsole(app: FastifyInstance, options: ConsoleOptions): void {
  const root = options.root ?? CONSOLE_DIST;
  app.get('/ui', { logLevel: 'warn' }, async (_request, reply) => reply.redirect('/ui/'));
  app.get('/ui/config.json', { logLevel: 'warn' }, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { taskApi: options.taskApiUrl ?? null, traceUrl: options.traceUrl ?? null };
  });
  if (!existsSync(`${root}/index.html`)) {
    app.get('/ui/*', async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `pnpm console:build` (scripts/up.sh does).\n'),
    );
    return;
  }
  void app.register(fastifyStatic, {
    root,
    prefix: '/ui/',
    logLevel: 'warn',
    // Hashed file names would allow immutable caching; the files are small, so revalidate instead.
    cacheControl: true,
    maxAge: 0,
    etag: true,
    preCompressed: true,
  });
}
