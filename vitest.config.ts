import { defineConfig } from 'vitest/config';

// One runner for the whole workspace, in two projects. `unit`: pure logic (the domain's decisions,
// config schemas, the executor's outcome mapping, the docs' links, the fence list), no storage, no
// processes: `pnpm test:unit`. `storage`: every other test, on the real MariaDB and Cassandra of
// scripts/stack (brought up by the global setup when they are not running), a database and a
// keyspace per test file. `pnpm test` runs both.
const UNIT = [
  'packages/domain/test/**/*.test.ts',
  'packages/runtime/test/**/*.test.ts',
  'services/*/test/config.test.ts',
  'services/executor/test/transitions.test.ts',
  'services/task-api/test/signal-token-check.test.ts',
  'packages/client/test/webhook.test.ts',
  'packages/client/test/generated.test.ts',
  'apps/console/test/*.test.ts',
  'test/docs/*.test.ts',
  'test/tooling/*.test.ts',
  'test/shape/**/*.test.ts',
];

// The MySQL leg (`pnpm test:mysql`, DSCHED_MYSQL_FLAVOR=mysql): the storage project less the files
// that never reach MySQL (Cassandra alone, rendering of deploy files, in-process HTTP); they ran on
// the MariaDB leg and would run here the same.
const NO_MYSQL = [
  'packages/cassandra/test/**',
  'packages/client/test/transport.test.ts',
  'packages/runtime/test/**',
  'packages/mysql/test/ids.test.ts',
  'services/executor/test/call-abort.test.ts',
  'services/executor/test/share-meter.test.ts',
  'loadtest/test/sink.test.ts',
  'test/deploy/compose.test.ts',
  'test/deploy/helm.test.ts',
  'test/deploy/kustomize.test.ts',
  'test/deploy/prometheus.test.ts',
];
const MYSQL_LEG = process.env.DSCHED_MYSQL_FLAVOR === 'mysql';

// The Vitess leg (`pnpm test:vitess`, DSCHED_MYSQL_TOPOLOGY=vitess): the storage tests that pass
// through vtgate on a sharded keyspace today, and the route tests of the hot statements. The rest
// of packages/mysql meets a statement vtgate v24 refuses (UPDATE joined to literal rows, DML on
// the vindex column, unmergeable subqueries) or checks a MySQL plan (EXPLAIN) that vtgate does not
// print: docs/vitess.md lists them.
const VITESS = [
  'packages/*/test/vitess-*.test.ts',
  'services/*/test/vitess-*.test.ts',
  'packages/mysql/test/materialise.test.ts',
  'packages/mysql/test/partition-leases.test.ts',
  'packages/mysql/test/finish-guard.test.ts',
  'packages/mysql/test/workflow-reads.test.ts',
  'packages/mysql/test/tenant-store.test.ts',
  'packages/mysql/test/signing-secrets.test.ts',
  'packages/mysql/test/clock.test.ts',
  'packages/mysql/test/pool-types.test.ts',
  'packages/mysql/test/workflow-walk.test.ts',
  'packages/mysql/test/workflow-map.test.ts',
  'packages/mysql/test/workflow-scheduled.test.ts',
  'packages/mysql/test/workflow-tags.test.ts',
  'packages/mysql/test/workflow-waits.test.ts',
  'packages/mysql/test/workflow-wide-parents.test.ts',
  'packages/mysql/test/workflow-outputs.test.ts',
  'packages/mysql/test/walk-agrees.property.test.ts',
  'packages/mysql/test/follow-ups.test.ts',
  'packages/mysql/test/finish-path.test.ts',
  'packages/mysql/test/outcomes-and-leases.test.ts',
  'packages/mysql/test/workflow-pause.test.ts',
  'packages/mysql/test/workflow-sweep.test.ts',
  'packages/mysql/test/flow-control.test.ts',
  // The reconciler's recount of the task quota: counted shard by shard (vitess-routes-recount).
  'packages/mysql/test/task-count-recount.test.ts',
  // job-api's routes on its storage (the redrive keyed per shard group: vitess-routes-redrive).
  'services/job-api/test/app.test.ts',
  // The e2e files whose services run through vtgate (docs/vitess.md).
  'test/e2e/one-job.test.ts',
  'test/e2e/executor-cancel-async.test.ts',
  'test/e2e/callbacks.test.ts',
  'test/e2e/pause-on-failure.test.ts',
  'test/e2e/task-api-quotas.test.ts',
  'test/e2e/executor-outcomes.test.ts',
  'test/e2e/executor-delivery.test.ts',
  'test/e2e/workflows.test.ts',
  'test/e2e/workflow-operations.test.ts',
  'test/e2e/workflow-map.test.ts',
  'test/e2e/workflow-waits.test.ts',
  'test/e2e/workflow-archive.test.ts',
  'test/e2e/scheduler-exactly-once.test.ts',
  'test/e2e/scheduler-leases.test.ts',
  'test/e2e/scheduler-clock.test.ts',
  'test/e2e/flow-control.test.ts',
  'test/e2e/fair-share.test.ts',
  'test/e2e/executor-tenant-limit.test.ts',
  'test/e2e/executor-lanes.test.ts',
  'test/e2e/executor-crash.test.ts',
  'test/e2e/bulk-operations.test.ts',
  'test/e2e/archiver-crash.test.ts',
  'test/e2e/history-10k.test.ts',
  'test/e2e/api-contract.test.ts',
  'test/e2e/client.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/workflow-kinds-history.test.ts',
  'test/e2e/executor-shutdown.test.ts',
  'test/e2e/secrets-in-logs.test.ts',
  'test/e2e/tracing-off.test.ts',
  'test/e2e/tracing.test.ts',
];
const VITESS_LEG = process.env.DSCHED_MYSQL_TOPOLOGY === 'vitess';
// Tests of vtgate itself (the routes of the hot statements): on the Vitess leg only.
const VITESS_ONLY = ['packages/*/test/vitess-*.test.ts', 'services/*/test/vitess-*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    // Above the Vitess leg's readiness wait (DSCHED_TEST_READY_MS, 90 s in scripts/test-vitess.sh):
    // a beforeAll that starts services takes this one, never a shorter one of its own.
    hookTimeout: 180_000,
    pool: 'forks',
    // The Vitess leg runs one file per vttestserver at a time: as many as scripts/test-vitess.sh
    // started (a project does not take --maxWorkers from the command line).
    maxWorkers: VITESS_LEG ? Number(process.env.DSCHED_VITESS_WORKERS ?? 2) : 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'storage',
          globalSetup: ['./scripts/vitest-global-setup.ts'],
          include: VITESS_LEG
            ? VITESS
            : [
                'packages/*/test/**/*.test.ts',
                'services/*/test/**/*.test.ts',
                'loadtest/test/**/*.test.ts',
                'test/**/*.test.ts',
              ],
          exclude: VITESS_LEG
            ? UNIT
            : MYSQL_LEG
              ? [...UNIT, ...NO_MYSQL, ...VITESS_ONLY]
              : [...UNIT, ...VITESS_ONLY],
        },
      },
    ],
  },
});
