import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  parseSecretsKeyring,
  SIGNAL_TOKEN,
  signalToken,
  signalTokenHash,
  signalTokenMatches,
  storedSignalToken,
} from '../src/index.ts';

const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);
const node = { workflowId: 'run-1', nodeId: 'approve', jobId: 'job-1' };

describe('signal tokens (a wait node signal URL)', () => {
  it('is sig_ and 43 base64url characters, the same on every read of the same node and key', () => {
    const token = signalToken(keyA, node);
    expect(token).toMatch(SIGNAL_TOKEN);
    expect(signalToken(keyA, node)).toBe(token);
    expect(SIGNAL_TOKEN.test(`${token}x`)).toBe(false);
    expect(SIGNAL_TOKEN.test(token.slice(4))).toBe(false);
  });

  it('differs for another run, node, job or key, so one URL signals one node only', () => {
    const token = signalToken(keyA, node);
    const others = [
      signalToken(keyB, node),
      signalToken(keyA, { ...node, workflowId: 'run-2' }),
      signalToken(keyA, { ...node, nodeId: 'approve2' }),
      signalToken(keyA, { ...node, jobId: 'job-2' }),
      // The fields are separated: moving a character from one to the next is another node.
      signalToken(keyA, { workflowId: 'run-1a', nodeId: 'pprove', jobId: 'job-1' }),
    ];
    expect(new Set([token, ...others]).size).toBe(others.length + 1);
  });

  it('is derived from a key of its own, not the keyring key used directly', () => {
    const token = signalToken(keyA, node);
    const direct = createHash('sha256')
      .update(keyA)
      .update(`${node.workflowId}\n${node.nodeId}\n${node.jobId}`);
    expect(token).not.toBe(`sig_${direct.digest('base64url')}`);
  });

  it('stores the SHA-256 of the token and matches only that token', () => {
    const token = signalToken(keyA, node);
    const hash = signalTokenHash(token);
    expect(hash.toString('hex')).toBe(createHash('sha256').update(token).digest('hex'));
    expect(signalTokenMatches(token, hash)).toBe(true);
    expect(signalTokenMatches(signalToken(keyB, node), hash)).toBe(false);
    expect(signalTokenMatches(`${token}x`, hash)).toBe(false);
    // A stored hash of another length never matches (and never throws in timingSafeEqual).
    expect(signalTokenMatches(token, hash.subarray(0, 16))).toBe(false);
    expect(signalTokenMatches(token, Buffer.alloc(0))).toBe(false);
  });

  it('finds the token under whichever key of the keyring made it, after a rotation', () => {
    const old = parseSecretsKeyring(`old:${keyA.toString('base64')}`);
    const rotated = parseSecretsKeyring(`new:${keyB.toString('base64')},old:${keyA.toString('base64')}`);
    const oldHash = signalTokenHash(signalToken(keyA, node));
    expect(storedSignalToken(old, node, oldHash)).toBe(signalToken(keyA, node));
    expect(storedSignalToken(rotated, node, oldHash)).toBe(signalToken(keyA, node));
    const newHash = signalTokenHash(signalToken(keyB, node));
    expect(storedSignalToken(rotated, node, newHash)).toBe(signalToken(keyB, node));
    // A key dropped from the ring no longer opens its URLs; another node's hash matches nothing.
    expect(storedSignalToken(old, node, newHash)).toBeNull();
    expect(storedSignalToken(rotated, { ...node, nodeId: 'other' }, oldHash)).toBeNull();
  });
});
