import { runSchemathesis } from '@dsched/testkit/schemathesis';
import { expect, it } from 'vitest';

// The bounded, seeded fuzz run of CI: schemathesis with `--checks all` against task-api (as a
// tenant and as the operator) and job-api, on the real stores. A failure prints schemathesis's own
// report, with a `st replay` / curl line per case. The long run is `pnpm loadtest fuzz`.
// The seed is fixed so a red run reproduces; DSCHED_FUZZ_SEED explores another.
const EXAMPLES = Number(process.env.DSCHED_FUZZ_EXAMPLES ?? 100);
const SEED = Number(process.env.DSCHED_FUZZ_SEED ?? 18);

it(`schemathesis finds no failure in ${EXAMPLES} examples per operation (seed ${SEED})`, async () => {
  const results = await runSchemathesis({
    examples: EXAMPLES,
    seed: SEED,
    storeUrl: import.meta.url,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  for (const r of results) {
    // The whole report when it failed: the cases, their reproductions and the summary.
    expect(r.exitCode, `${r.name}\n${r.output}`).toBe(0);
    expect(r.cases, `${r.name} ran no case`).toBeGreaterThan(0);
  }
  expect(results.map((r) => r.name)).toEqual([
    'task-api (tenant)',
    'task-api (operator)',
    'job-api (tenant)',
  ]);
}, 900_000);
