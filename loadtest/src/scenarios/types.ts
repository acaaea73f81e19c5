import type { Run, RunResult } from '../harness/run.ts';

export interface Scenario {
  name: string;
  /** Other names it answers to (an old name kept for the commands people have). */
  aliases?: string[];
  /** One line for the usage text and the report. */
  summary: string;
  /** The scale knobs it reads (`--tasks 3000`), with their defaults. */
  knobs?: Record<string, number>;
  run(run: Run): Promise<RunResult>;
}

/** Due at the next whole second at least `ms` from now. */
export const wholeSecondAfter = (ms: number) => Math.ceil((Date.now() + ms) / 1000) * 1000;
