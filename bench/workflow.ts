// pnpm bench workflow [--nodes N] [--rounds N]
//
// Workflow submission: parse, validate (O(V+E) graph check) and store a workflow of N nodes
// (default 100,000) with about two parents per node (~200,000 edges), as task-api does it (the
// domain's check, then the MySQL store in one transaction); median over the rounds.
// Not measured yet: fanout_ratio, hop_ms, fanin_ms, completion cost by run size, rss (issue 13).
// Uses DATABASE_URL when set, else dsched_bench_workflow.
import { createWorkflowSchema, planWorkflow } from '@dsched/domain';
import { createPool } from '@dsched/mysql/pool';
import { insertWorkflow } from '@dsched/mysql/workflows/workflow-submit';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { ensureStack, machine, median } from './_stack.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const NODES = arg('nodes', 100_000);
const ROUNDS = arg('rounds', 3);
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'mysql://dsched:dsched@127.0.0.1:3306/dsched_bench_workflow',
  CASSANDRA_KEYSPACE: process.env.CASSANDRA_KEYSPACE ?? 'dsched_bench_workflow',
};
await ensureStack(env);
const pool = createPool(env.DATABASE_URL, { connectionLimit: 4 });
const tenant = await createTenantWithKey(pool, 'bench-workflow');

// Ten roots, then each node depends on an earlier node about half its index back and on one of
// the few just before it: fan-out, fan-in and long chains, every parent earlier (a DAG).
const nodes = Array.from({ length: NODES }, (_, i) => {
  const parents = i < 10 ? [] : [...new Set([Math.floor(i / 2) - 1 - (i % 3), i - 1 - (i % 7)])];
  return { id: `n${i}`, target: { url: 'http://127.0.0.1:9/x' }, dependsOn: parents.map((p) => `n${p}`) };
});
const body = JSON.stringify({ name: 'bench', nodes });

const rounds: { parse: number; check: number; store: number; total: number; edges: number }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const req = createWorkflowSchema.parse(JSON.parse(body));
  const t1 = performance.now();
  const plan = planWorkflow(req, tenant.id, Date.now());
  const t2 = performance.now();
  if (!(await insertWorkflow(pool, plan))) throw new Error('quota');
  const t3 = performance.now();
  rounds.push({ parse: t1 - t0, check: t2 - t1, store: t3 - t2, total: t3 - t0, edges: plan.edgeCount });
}
await pool.end();

const m = (k: 'parse' | 'check' | 'store' | 'total') => median(rounds.map((r) => r[k]));
console.log(`workflow submission, ${NODES} nodes, ${rounds[0]!.edges} edges, ${body.length} bytes`);
console.log(`machine: ${machine()}`);
console.log('part                      median ms');
console.log(`JSON parse + zod          ${m('parse').toFixed(0)}`);
console.log(`graph check + ids         ${m('check').toFixed(0)}`);
console.log(`MySQL store (1 tx)        ${m('store').toFixed(0)}`);
console.log(`total                     ${m('total').toFixed(0)}`);
console.log(
  JSON.stringify({
    bench: 'workflow',
    metrics: {
      submit_100k_s: Number((m('total') / 1000).toFixed(2)),
      nodes: NODES,
      edges: rounds[0]!.edges,
      parse_ms: Math.round(m('parse')),
      check_ms: Math.round(m('check')),
      store_ms: Math.round(m('store')),
    },
  }),
);
