import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canNodeTransition,
  FINISHED_NODE_STATES,
  finalWorkflowState,
  nodeStateView,
  parentOutcome,
  STORED_NODE_STATES,
  TRIGGER_RULES,
  triggerDecision,
} from '../src/index.ts';

const counts = (failed: number, skipped: number, unfinished = 0) => ({ unfinished, failed, skipped });

describe('triggerDecision', () => {
  it('waits while a parent is unfinished, whatever the rule and the finished parents', () => {
    for (const rule of TRIGGER_RULES) expect(triggerDecision(rule, counts(3, 1, 1))).toBe('waiting');
  });

  it('all_success runs only when every parent succeeded; a failure wins over a skip', () => {
    expect(triggerDecision('all_success', counts(0, 0))).toBe('run');
    expect(triggerDecision('all_success', counts(1, 0))).toBe('upstream_failed');
    expect(triggerDecision('all_success', counts(1, 1))).toBe('upstream_failed');
    expect(triggerDecision('all_success', counts(0, 1))).toBe('skipped');
  });

  it('all_done always runs; one_failed runs only after a failure', () => {
    expect(triggerDecision('all_done', counts(2, 1))).toBe('run');
    expect(triggerDecision('one_failed', counts(1, 0))).toBe('run');
    expect(triggerDecision('one_failed', counts(0, 2))).toBe('skipped');
    expect(triggerDecision('one_failed', counts(0, 0))).toBe('skipped');
  });

  it('property: the decision depends on counts only, so parents may finish in any order', () => {
    const outcome = fc.constantFrom(...FINISHED_NODE_STATES);
    fc.assert(
      fc.property(fc.constantFrom(...TRIGGER_RULES), fc.array(outcome, { maxLength: 8 }), (rule, parents) => {
        const tally = (list: typeof parents) => ({
          unfinished: 0,
          failed: list.filter((p) => parentOutcome(p) === 'failed').length,
          skipped: list.filter((p) => parentOutcome(p) === 'skipped').length,
        });
        const d = triggerDecision(rule, tally(parents));
        expect(triggerDecision(rule, tally([...parents].reverse()))).toBe(d);
        // all_success runs exactly when every parent succeeded.
        if (rule === 'all_success') expect(d === 'run').toBe(parents.every((p) => p === 'succeeded'));
        expect(d).not.toBe('waiting');
      }),
    );
  });
});

describe('node states', () => {
  it('a succeeded node never moves; a finished node that did not succeed only goes back by a retry', () => {
    for (const to of STORED_NODE_STATES) expect(canNodeTransition('succeeded', to)).toBe(false);
    expect(canNodeTransition('dead', 'waiting')).toBe(true);
    expect(canNodeTransition('pending', 'waiting')).toBe(false);
    expect(canNodeTransition('waiting', 'succeeded')).toBe(false);
  });

  it('shows held nodes as pending and live ones after their job', () => {
    expect(nodeStateView('ready', null)).toBe('pending');
    expect(nodeStateView('pending', 'running')).toBe('running');
    expect(nodeStateView('pending', 'pending')).toBe('pending');
    expect(nodeStateView('upstream_failed', null)).toBe('upstream_failed');
  });

  it('a run fails when a node is dead or upstream_failed, and succeeds past skipped nodes', () => {
    expect(finalWorkflowState({ succeeded: 3, skipped: 2 })).toBe('succeeded');
    expect(finalWorkflowState({ succeeded: 3, dead: 1 })).toBe('failed');
    expect(finalWorkflowState({ succeeded: 3, upstream_failed: 1 })).toBe('failed');
  });
});
