import { describe, expect, it } from 'vitest';
import { CALLBACK_RESPONSE_BODY_BYTES, cappedResponseBody } from '../src/decisions/callbacks.ts';
import {
  inlineInputsBody,
  inlineInputsBytes,
  nodeOutputJson,
  nodeParentsUrl,
  pagedInputsBody,
} from '../src/decisions/workflow-inputs.ts';

// A node's output and its children's inputs (docs/workflows.md "Parent outputs"), and the body a
// callback event carries: pure decisions that storage and end-to-end tests reached, and the
// mutation run (domain tests only) did not.

describe('a node output', () => {
  it('is the body when it is JSON, the body as a JSON string when not, and "" when empty', () => {
    expect(nodeOutputJson('{"a":1}')).toBe('{"a":1}');
    expect(nodeOutputJson('42')).toBe('42');
    expect(nodeOutputJson('not json')).toBe('"not json"');
    // A body cut at the cap is not JSON: kept as the string it starts with.
    expect(nodeOutputJson('{"a":')).toBe('"{\\"a\\":"');
    expect(nodeOutputJson('')).toBe('""');
  });
});

describe("a fan-in's inputs", () => {
  it('inline: the parents by node id order, a missing output null, then the body', () => {
    const body = inlineInputsBody({ x: 1 }, [
      { nodeId: 'b', output: '"two"' },
      { nodeId: 'a', output: '{"one":1}' },
      { nodeId: 'c', output: null },
    ]);
    expect(body).toBe('{"parents":{"a":{"one":1},"b":"two","c":null},"body":{"x":1}}');
    expect(JSON.parse(body)).toEqual({ parents: { a: { one: 1 }, b: 'two', c: null }, body: { x: 1 } });
    expect(inlineInputsBody(undefined, [])).toBe('{"parents":{},"body":null}');
    // Whatever order the rows came in, every attempt sends the same bytes.
    const ids = ['d', 'c', 'b', 'a', 'e'];
    const orders = [ids, [...ids].reverse(), ['b', 'e', 'a', 'd', 'c']];
    for (const order of orders) {
      expect(
        inlineInputsBody(
          null,
          order.map((nodeId) => ({ nodeId, output: '1' })),
        ),
      ).toBe('{"parents":{"a":1,"b":1,"c":1,"d":1,"e":1},"body":null}');
    }
  });

  it('counts the inline form’s bytes: its frame, each parent’s id and output, null for a missing one', () => {
    const parents = [
      { nodeId: 'a', outputBytes: 9 },
      { nodeId: 'b', outputBytes: 5 },
      { nodeId: 'c', outputBytes: 0 },
    ];
    const exact = inlineInputsBody({ x: 1 }, [
      { nodeId: 'a', output: '{"one":1}' },
      { nodeId: 'b', output: '"two"' },
      { nodeId: 'c', output: null },
    ]);
    // The count may only overestimate (a separator per parent), never fall short of the body.
    const counted = inlineInputsBytes(JSON.stringify({ x: 1 }), parents);
    expect(counted).toBe(24 + 7 + (1 + 4 + 9) + (1 + 4 + 5) + (1 + 4 + 4));
    expect(counted).toBeGreaterThanOrEqual(Buffer.byteLength(exact));
    expect(inlineInputsBytes('"é"', [])).toBe(24 + 4);
  });

  it('paged: where to read the parents, how many, and the body', () => {
    expect(JSON.parse(pagedInputsBody({ x: 1 }, 'http://api/p', 1500))).toEqual({
      parentsUrl: 'http://api/p',
      parentCount: 1500,
      body: { x: 1 },
    });
    expect(JSON.parse(pagedInputsBody(undefined, 'u', 2))).toEqual({
      parentsUrl: 'u',
      parentCount: 2,
      body: null,
    });
  });

  it("names the parents' list on task-api, the node id escaped and the base's trailing slashes dropped", () => {
    expect(nodeParentsUrl('http://api:8080//', 'wf1', 'a b/c')).toBe(
      'http://api:8080/v1/workflows/wf1/nodes/a%20b%2Fc/parents',
    );
    expect(nodeParentsUrl('http://api', 'wf1', 'n')).toBe('http://api/v1/workflows/wf1/nodes/n/parents');
  });
});

describe('a callback event’s response body', () => {
  it('is at most CALLBACK_RESPONSE_BODY_BYTES of the call’s body', () => {
    expect(cappedResponseBody(Buffer.from('short'))).toBe('short');
    const long = Buffer.alloc(CALLBACK_RESPONSE_BODY_BYTES + 10, 'x');
    expect(cappedResponseBody(long)).toHaveLength(CALLBACK_RESPONSE_BODY_BYTES);
  });
});
