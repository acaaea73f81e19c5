import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';

// The reconciler's passes through vtgate (docs/sharding.md): each statement of a pass, keyed by the
// reconciler's group of partitions, reaches the one shard the group lives on. Vitess leg only.
const db = useTestDatabase(import.meta.url);

const NOW = new Date('2026-12-05T09:00:00.000Z');
const batch = (partitions: number[]) => {
  const ids = partitions.map((p) => idToBin(newId(NOW.getTime(), p)));
  return { ids, pairs: ids.map((id) => [id, 1]) };
};

const RECONCILE: Record<string, RoutedStatement> = {
  'reconcile: expired claims (release-expired-select)': {
    file: 'jobs/reconcile/release-expired-select.sql',
    params: (p) => [NOW, p, 10],
  },
  'reconcile: past their deadline (deadline-select)': {
    file: 'jobs/reconcile/deadline-select.sql',
    params: (p) => [NOW, p, 10],
  },
  'reconcile: held by gone executors (owner-select)': {
    file: 'jobs/reconcile/owner-select.sql',
    params: (p) => [['executor-1'], p, 10],
  },
  'reconcile: the expired given back (release-expired-update)': {
    file: 'jobs/reconcile/release-expired-update.sql',
    params: (p) => [NOW, NOW, NOW, p, batch(p).ids, batch(p).pairs, NOW],
  },
  'reconcile: the late failed (deadline-update)': {
    file: 'jobs/reconcile/deadline-update.sql',
    params: (p) => [NOW, NOW, NOW, p, batch(p).ids, batch(p).pairs, NOW],
  },
  'reconcile: the gone executors’ given back (owner-update)': {
    file: 'jobs/reconcile/owner-update.sql',
    params: (p) => [NOW, NOW, NOW, p, batch(p).ids, batch(p).pairs, ['executor-1']],
  },
  'reconcile: their attempt rows written (abandoned-attempts-insert)': {
    file: 'jobs/reconcile/abandoned-attempts-insert.sql',
    params: (p) => [NOW, NOW, 'lease_expired', 'x', NOW, NOW, p, batch(p).ids, batch(p).pairs],
  },
  'reconcile: their open attempt rows closed (close-abandoned-attempts)': {
    file: 'jobs/reconcile/close-abandoned-attempts.sql',
    params: (p) => [NOW, 'lease_expired', 'x', NOW, p, batch(p).ids, batch(p).pairs],
  },
};

describe('the reconciler through vtgate', () => {
  itRoutesToOneShard(db, RECONCILE);
});
