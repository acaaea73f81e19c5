import { describe, expect, it } from 'vitest';
import { newSigningSecret, verifyWebhookSignature, webhookSignature } from '../src/index.ts';

describe('Standard Webhooks signature', () => {
  it('matches the specification’s published example', () => {
    // The example of the Standard Webhooks specification (standard-webhooks/spec.md).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const ts = 1614265330;
    const body = '{"test": 2432232314}';
    expect(webhookSignature(secret, id, ts, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('rejects a body, id or timestamp that was changed', () => {
    const secret = newSigningSecret();
    const sig = webhookSignature(secret, 'job-1', 100, 'payload');
    expect(verifyWebhookSignature(secret, 'job-1', 100, 'payload', sig)).toBe(true);
    expect(verifyWebhookSignature(secret, 'job-1', 100, 'payload!', sig)).toBe(false);
    expect(verifyWebhookSignature(secret, 'job-2', 100, 'payload', sig)).toBe(false);
    expect(verifyWebhookSignature(secret, 'job-1', 101, 'payload', sig)).toBe(false);
    expect(verifyWebhookSignature(newSigningSecret(), 'job-1', 100, 'payload', sig)).toBe(false);
  });
});
