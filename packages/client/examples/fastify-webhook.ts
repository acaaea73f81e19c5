import Fastify, { type FastifyInstance } from 'fastify';
import { verifyWebhook, WebhookVerificationError } from '../src/webhook.ts';

// A tenant's endpoint that accepts only calls signed by dsched. Run it with
//   DSCHED_SIGNING_SECRET=whsec_... node packages/client/examples/fastify-webhook.ts
// and point a task's target.url at http://127.0.0.1:3000/hook.
//
// The body is kept as raw bytes (the signature covers them exactly) and parsed after verifying.
// The job id (`webhook-id`, also `Idempotency-Key`) is the same on every attempt of an
// occurrence: use it to make the effect once.

export function buildWebhookReceiver(
  secret: string,
  onCall: (call: { id: string; body: unknown }) => void = () => {},
): FastifyInstance {
  const app = Fastify();
  // Keep every body as raw bytes, JSON included: the signature covers the bytes, not a parse of them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/hook', async (request, reply) => {
    const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
    try {
      const { id } = verifyWebhook(secret, request.headers, raw);
      const text = raw.toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // a task body may be plain text
      }
      onCall({ id, body });
      return reply.status(204).send();
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        // 4xx other than 408/425/429 dead-letters at once: a bad signature is not worth retrying.
        return reply.status(401).send({ error: err.reason });
      }
      throw err;
    }
  });
  return app;
}

if (import.meta.main) {
  const secret = process.env.DSCHED_SIGNING_SECRET;
  if (!secret) {
    console.error('DSCHED_SIGNING_SECRET is required');
    process.exit(2);
  }
  const app = buildWebhookReceiver(secret, (call) => console.log('call', call.id, call.body));
  await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
}
