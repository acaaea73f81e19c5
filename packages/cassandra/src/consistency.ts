import cassandra from 'cassandra-driver';

// History's consistency levels (docs/history.md, D40): by name as configured
// (CASSANDRA_WRITE_CONSISTENCY, CASSANDRA_READ_CONSISTENCY), checked at start against the
// keyspace's replication and the cluster's nodes, so a level no write or read could ever meet
// stops the service with a message instead of failing every request.

const { consistencies } = cassandra.types;

const LEVELS: Record<string, number> = {
  ONE: consistencies.one,
  TWO: consistencies.two,
  THREE: consistencies.three,
  QUORUM: consistencies.quorum,
  LOCAL_ONE: consistencies.localOne,
  LOCAL_QUORUM: consistencies.localQuorum,
  EACH_QUORUM: consistencies.eachQuorum,
  ALL: consistencies.all,
};

/** The driver's code of a level name (ONE, LOCAL_QUORUM, …). */
export function consistencyOf(name: string): number {
  const level = LEVELS[name];
  if (level === undefined) throw new Error(`unknown Cassandra consistency level ${name}`);
  return level;
}

/** Replicas per data centre of a keyspace's replication map (as system_schema.keyspaces has it). */
export function replicasByDc(replication: Record<string, string>, localDc: string): Map<string, number> {
  const cls = replication.class ?? '';
  const byDc = new Map<string, number>();
  if (cls.endsWith('SimpleStrategy')) {
    // SimpleStrategy places its replicas without regard to data centres; Cassandra counts them all
    // as local for LOCAL_* levels.
    byDc.set(localDc, Number(replication.replication_factor ?? 0));
  } else {
    for (const [key, value] of Object.entries(replication))
      if (key !== 'class' && key !== 'replication_factor') byDc.set(key, Number(value));
  }
  return byDc;
}

/** Acknowledgements a level needs from the replicas of some data centres. */
export interface Requirement {
  needed: number;
  dcs: string[];
}

/**
 * What a level needs, from the replication factors (as Cassandra computes it: from the factors, not
 * from the nodes up): one requirement, or one per data centre for EACH_QUORUM.
 */
export function requirements(name: string, replicas: Map<string, number>, localDc: string): Requirement[] {
  const all = [...replicas.keys()];
  const total = [...replicas.values()].reduce((a, b) => a + b, 0);
  const quorum = (n: number) => Math.floor(n / 2) + 1;
  switch (name) {
    case 'ONE':
      return [{ needed: 1, dcs: all }];
    case 'TWO':
      return [{ needed: 2, dcs: all }];
    case 'THREE':
      return [{ needed: 3, dcs: all }];
    case 'QUORUM':
      return [{ needed: quorum(total), dcs: all }];
    case 'ALL':
      return [{ needed: Math.max(1, total), dcs: all }];
    case 'LOCAL_ONE':
      return [{ needed: 1, dcs: [localDc] }];
    case 'LOCAL_QUORUM':
      return [{ needed: quorum(replicas.get(localDc) ?? 0), dcs: [localDc] }];
    case 'EACH_QUORUM':
      return [...replicas].filter(([, n]) => n > 0).map(([dc, n]) => ({ needed: quorum(n), dcs: [dc] }));
    default:
      throw new Error(`unknown Cassandra consistency level ${name}`);
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface ConsistencyLevels {
  read: string;
  write: string;
}

/**
 * Throws, naming the variable, when a configured level could never be met: more acknowledgements
 * than the keyspace has replicas (in the local data centre for LOCAL_*), or than the cluster has
 * nodes there (a keyspace replicated 3 times on one node). A level that a single node down stops
 * (ALL, or QUORUM with 2 replicas) is allowed: docs/history.md says what it costs.
 */
export async function checkConsistency(
  client: cassandra.Client,
  keyspace: string,
  localDc: string,
  levels: ConsistencyLevels,
): Promise<void> {
  const row =
    // The schema is on every node (a local table): read at ONE, not at the levels being checked.
    (
      await client.execute(
        'SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?',
        [keyspace],
        { prepare: true, consistency: cassandra.types.consistencies.localOne },
      )
    ).first();
  if (!row) throw new Error(`CASSANDRA_KEYSPACE: keyspace ${keyspace} does not exist (run the migrations)`);
  const replicas = replicasByDc(row.get('replication') as Record<string, string>, localDc);
  const nodes = new Map<string, number>();
  for (const host of client.hosts.values()) nodes.set(host.datacenter, (nodes.get(host.datacenter) ?? 0) + 1);
  const sum = (dcs: string[], f: (dc: string) => number) => dcs.reduce((a, dc) => a + f(dc), 0);
  const problems: string[] = [];
  for (const [variable, name] of [
    ['CASSANDRA_WRITE_CONSISTENCY', levels.write],
    ['CASSANDRA_READ_CONSISTENCY', levels.read],
  ] as const) {
    for (const { needed, dcs } of requirements(name, replicas, localDc)) {
      const factor = sum(dcs, (dc) => replicas.get(dc) ?? 0);
      // A data centre holds no more replicas than it has nodes.
      const placed = sum(dcs, (dc) => Math.min(replicas.get(dc) ?? 0, nodes.get(dc) ?? 0));
      const where = dcs.length === 1 ? ` in ${dcs[0]}` : '';
      const needs = `${variable}: ${name} needs ${plural(needed, 'acknowledgement')}`;
      if (needed > factor)
        problems.push(`${needs}, keyspace ${keyspace} has ${plural(factor, 'replica')}${where}`);
      else if (needed > placed)
        problems.push(
          `${needs}, the cluster has ${plural(placed, 'node')}${where} to hold keyspace ${keyspace}'s ${plural(factor, 'replica')}`,
        );
    }
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
}
