import { newSecretsKey, parseSecretsKeyring, signalToken } from '@dsched/domain';
import { describe, expect, it } from 'vitest';
import { tokenChecker } from '../src/core/workflow-signals.ts';

// A signal URL's token checked with no stored hash (a scheduled run's node, or a node read from
// history, D53): the node's token under any key of the keyring is its, so a URL handed out before a
// key rotation still reaches the node; any other token is not.

const node = {
  workflowId: '01a2445d-6c93-70cc-8ca1-d3f621daeff8',
  nodeId: 'approve',
  jobId: '01a2445d-6c93-70cc-8ca1-000000000001',
};

describe('tokenChecker without a stored hash', () => {
  const oldKey = newSecretsKey();
  const rotated = parseSecretsKeyring(`new:${newSecretsKey()},old:${oldKey}`);

  it('takes the token made under the current key and under a key kept after a rotation', () => {
    for (const key of rotated.byId.values()) {
      const check = tokenChecker(rotated, signalToken(key, node), node.workflowId, node.nodeId);
      expect(check(null, node.jobId)).toBe(true);
    }
  });

  it("refuses another node's token, another job's and one under a key the keyring does not hold", () => {
    const current = rotated.current.key;
    const other = signalToken(current, { ...node, nodeId: 'other' });
    expect(tokenChecker(rotated, other, node.workflowId, node.nodeId)(null, node.jobId)).toBe(false);
    const token = signalToken(current, node);
    expect(
      tokenChecker(rotated, token, node.workflowId, node.nodeId)(null, `${node.jobId.slice(0, -1)}2`),
    ).toBe(false);
    const stranger = signalToken(Buffer.from(newSecretsKey(), 'base64'), node);
    expect(tokenChecker(rotated, stranger, node.workflowId, node.nodeId)(null, node.jobId)).toBe(false);
  });
});
