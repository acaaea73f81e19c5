import { webhookSignature } from '@dsched/domain';
import { describe, expect, it } from 'vitest';
import { buildWebhookReceiver } from '../examples/fastify-webhook.ts';
import { verifyWebhook, WebhookVerificationError } from '../src/webhook.ts';

// verifyWebhook against the signing side the executor uses (packages/domain/src/crypto/signature.ts).

const SECRET = `whsec_${Buffer.from('a tenant signing secret, 32 bytes').toString('base64')}`;
const NOW = new Date('2026-12-01T12:00:00Z');
const TS = Math.floor(NOW.getTime() / 1000);
const BODY = '{"hello":"wörld"}';

function signed(body = BODY, ts = TS, secret = SECRET, id = '0192f0c4-7a1b-7c3d-8e4f-0123456789ab') {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(ts),
    'webhook-signature': webhookSignature(secret, id, ts, body),
  };
}

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
  return 'verified';
}

describe('verifyWebhook', () => {
  it('accepts what the executor signs, as text, bytes or a Headers object', () => {
    const headers = signed();
    expect(verifyWebhook(SECRET, headers, BODY, { now: NOW })).toEqual({
      id: headers['webhook-id'],
      timestamp: NOW,
    });
    expect(reason(() => verifyWebhook(SECRET, headers, Buffer.from(BODY), { now: NOW }))).toBe('verified');
    expect(reason(() => verifyWebhook(SECRET, new Headers(headers), BODY, { now: NOW }))).toBe('verified');
  });

  it('accepts any one matching signature of several (a secret being rotated)', () => {
    const headers = signed();
    const other = webhookSignature(`whsec_${Buffer.from('another').toString('base64')}`, 'x', TS, BODY);
    headers['webhook-signature'] = `${other} ${headers['webhook-signature']}`;
    expect(reason(() => verifyWebhook(SECRET, headers, BODY, { now: NOW }))).toBe('verified');
  });

  it.each([
    ['a changed body', () => verifyWebhook(SECRET, signed(), `${BODY} `, { now: NOW }), 'bad_signature'],
    [
      'another secret',
      () => verifyWebhook(`whsec_${Buffer.from('x').toString('base64')}`, signed(), BODY, { now: NOW }),
      'bad_signature',
    ],
    [
      'another id',
      () => verifyWebhook(SECRET, { ...signed(), 'webhook-id': 'other' }, BODY, { now: NOW }),
      'bad_signature',
    ],
    [
      'a signature for another time',
      () => verifyWebhook(SECRET, { ...signed(), 'webhook-timestamp': String(TS + 1) }, BODY, { now: NOW }),
      'bad_signature',
    ],
    ['an old call', () => verifyWebhook(SECRET, signed(BODY, TS - 301), BODY, { now: NOW }), 'too_old'],
    [
      'a call from the future',
      () => verifyWebhook(SECRET, signed(BODY, TS + 301), BODY, { now: NOW }),
      'too_new',
    ],
    [
      'a missing header',
      () => verifyWebhook(SECRET, { 'webhook-id': 'x', 'webhook-timestamp': String(TS) }, BODY, { now: NOW }),
      'missing_header',
    ],
    [
      'a timestamp in ms',
      () => verifyWebhook(SECRET, { ...signed(), 'webhook-timestamp': `${TS}.5` }, BODY, { now: NOW }),
      'bad_timestamp',
    ],
    [
      'a v2 signature',
      () =>
        verifyWebhook(
          SECRET,
          { ...signed(), 'webhook-signature': signed()['webhook-signature'].replace('v1,', 'v2,') },
          BODY,
          { now: NOW },
        ),
      'bad_signature',
    ],
  ])('refuses %s', (_what, call, expected) => {
    expect(reason(call)).toBe(expected);
  });

  it('the tolerance is a window both ways', () => {
    expect(reason(() => verifyWebhook(SECRET, signed(BODY, TS - 300), BODY, { now: NOW }))).toBe('verified');
    expect(
      reason(() => verifyWebhook(SECRET, signed(BODY, TS - 60), BODY, { now: NOW, toleranceS: 30 })),
    ).toBe('too_old');
  });
});

describe('the fastify example', () => {
  it('takes a signed call and refuses a tampered one', async () => {
    const calls: { id: string; body: unknown }[] = [];
    const app = buildWebhookReceiver(SECRET, (c) => calls.push(c));
    const ts = Math.floor(Date.now() / 1000);
    const headers = { ...signed(BODY, ts), 'content-type': 'application/json' };
    const ok = await app.inject({ method: 'POST', url: '/hook', headers, payload: BODY });
    expect(ok.statusCode).toBe(204);
    expect(calls).toEqual([{ id: headers['webhook-id'], body: { hello: 'wörld' } }]);
    const bad = await app.inject({ method: 'POST', url: '/hook', headers, payload: '{"hello":"world"}' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: 'bad_signature' });
    expect(calls).toHaveLength(1);
    await app.close();
  });
});
