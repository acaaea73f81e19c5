// A demo endpoint for the local platform: prints every call it receives and checks its
// Standard Webhooks signature when DEMO_SIGNING_SECRET is set. Answers 200.
import { createServer } from 'node:http';
import { verifyWebhookSignature } from '@dsched/domain';

const port = Number(process.env.DEMO_TARGET_PORT ?? 8090);
// Loopback by default; the docker-compose demo sets 0.0.0.0 so the executor's container reaches it.
const host = process.env.DEMO_TARGET_HOST ?? '127.0.0.1';
const secret = process.env.DEMO_SIGNING_SECRET;

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const h = req.headers;
    const signed =
      secret && h['webhook-id'] && h['webhook-timestamp'] && h['webhook-signature']
        ? verifyWebhookSignature(
            secret,
            String(h['webhook-id']),
            Number(h['webhook-timestamp']),
            body,
            String(h['webhook-signature']),
          )
        : undefined;
    process.stdout.write(
      `${JSON.stringify({
        at: new Date().toISOString(),
        method: req.method,
        url: req.url,
        idempotencyKey: h['idempotency-key'],
        attempt: h['dsched-attempt'],
        scheduledFor: h['dsched-scheduled-for'],
        signatureValid: signed,
        body,
      })}\n`,
    );
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
}).listen(port, host, () => process.stderr.write(`demo target listening on http://${host}:${port}\n`));
