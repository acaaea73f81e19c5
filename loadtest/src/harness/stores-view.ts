import { type CassandraClient, createCassandraClient } from '@dsched/cassandra/client';
import { binToId, maybeBinToId } from '@dsched/mysql/ids';
import { createPool, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import { CASSANDRA_CONTACT } from './stack.ts';

// Read-only views of the run's stores, for the final accounting and the backlog sampler. The
// harness never writes to them: everything it changes goes through the public APIs.

export interface StoredJob {
  id: string;
  taskId: string | null;
  scheduledMs: number;
  state: string;
  attempt: number;
  lastError: string | null;
  where: 'mysql' | 'cassandra' | 'both';
}

/** Every id of jobs_by_id, as `client` reads it (its level, its hosts). */
export async function idsOf(client: CassandraClient): Promise<Set<string>> {
  const ids = new Set<string>();
  const stream = client.stream('SELECT id FROM jobs_by_id', [], { prepare: true, fetchSize: 5000 });
  for await (const row of stream as unknown as AsyncIterable<{ get(c: string): unknown }>)
    ids.add(String(row.get('id')));
  return ids;
}

export class StoresView {
  readonly pool: Pool;
  readonly keyspace: string;
  readonly #contactPoints: string[];
  #history: CassandraClient | undefined;

  /**
   * `unprofiled`: the server's statement profile (db-profile.ts) leaves the harness's own reads out:
   * each connection turns its performance_schema instrumentation and its slow log off.
   * `cassandra`: the contact points of the run's history (the shared node by default).
   */
  constructor(
    databaseUrl: string,
    keyspace: string,
    options: { unprofiled?: boolean; cassandra?: string[] } = {},
  ) {
    this.pool = createPool(databaseUrl, { connectionLimit: 2 });
    this.keyspace = keyspace;
    this.#contactPoints = options.cassandra ?? [CASSANDRA_CONTACT];
    if (options.unprofiled) {
      this.pool.pool.on('connection', (conn) => {
        conn.query('SET SESSION sql_log_slow = 0', () => undefined);
        conn.query(
          'UPDATE performance_schema.threads SET INSTRUMENTED = ? WHERE PROCESSLIST_ID = CONNECTION_ID()',
          ['NO'],
          () => undefined,
        );
      });
    }
  }

  /** Jobs by state with scheduled_for up to `until`, and tasks whose next fire is still due by then. */
  async progress(until: Date): Promise<{ byState: Record<string, number>; unmaterialised: number }> {
    const [jobs] = await this.pool.query<RowDataPacket[]>(
      'SELECT state, COUNT(*) AS n FROM jobs WHERE scheduled_for <= ? GROUP BY state',
      [until],
    );
    const [tasks] = await this.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM tasks WHERE state = 'active' AND next_fire_at <= ?",
      [until],
    );
    const byState: Record<string, number> = {};
    for (const r of jobs) byState[r.state as string] = Number(r.n);
    return { byState, unmaterialised: Number(tasks[0]?.n ?? 0) };
  }

  /**
   * Live jobs (MySQL) and archived ones (Cassandra), merged by id. MySQL is read first: the
   * archiver writes history before it deletes, so a job it moves between the two reads is seen in
   * both, never in neither.
   */
  async allJobs(): Promise<Map<string, StoredJob>> {
    const jobs = new Map<string, StoredJob>();
    const [rows] = await this.pool.query<RowDataPacket[]>(
      'SELECT id, task_id, scheduled_for, state, attempt, last_error FROM jobs',
    );
    for (const r of rows) {
      const id = binToId(r.id as Buffer);
      jobs.set(id, {
        id,
        taskId: maybeBinToId(r.task_id as Buffer | null),
        scheduledMs: (r.scheduled_for as Date).getTime(),
        state: String(r.state),
        attempt: Number(r.attempt),
        lastError: (r.last_error as string | null) ?? null,
        where: 'mysql',
      });
    }
    const cassandra = createCassandraClient({
      contactPoints: this.#contactPoints,
      localDataCenter: 'datacenter1',
      keyspace: this.keyspace,
    });
    try {
      const stream = cassandra.stream('SELECT id, task_id, scheduled_for, state, doc FROM jobs_by_id', [], {
        prepare: true,
        fetchSize: 5000,
      });
      for await (const row of stream as unknown as AsyncIterable<{ get(c: string): unknown }>) {
        const id = String(row.get('id'));
        const live = jobs.get(id);
        if (live) {
          // Moved while we read: its history row is the newer word on its state.
          live.where = 'both';
          live.state = String(row.get('state'));
          continue;
        }
        const doc = JSON.parse(String(row.get('doc'))) as { attempt?: number; lastError?: string | null };
        const taskId = row.get('task_id');
        jobs.set(id, {
          id,
          taskId: taskId ? String(taskId) : null,
          scheduledMs: (row.get('scheduled_for') as Date).getTime(),
          state: String(row.get('state')),
          attempt: Number(doc.attempt ?? 0),
          lastError: doc.lastError ?? null,
          where: 'cassandra',
        });
      }
    } finally {
      await cassandra.shutdown();
    }
    return jobs;
  }

  /** Pending jobs (ids and tenants), oldest run_at first, for faults that act on jobs. */
  async pendingJobs(limit: number): Promise<{ id: string; tenantId: string }[]> {
    const [rows] = await this.pool.query<RowDataPacket[]>(
      "SELECT id, tenant_id FROM jobs WHERE state = 'pending' ORDER BY run_at LIMIT ?",
      [limit],
    );
    return rows.map((r) => ({ id: binToId(r.id as Buffer), tenantId: binToId(r.tenant_id as Buffer) }));
  }

  /**
   * Unexpired leases per holder instance (empty before leases exist). A scheduler's holder id is
   * its INSTANCE_ID, then '#' and a per-start suffix; counted by the instance part.
   */
  async leaseHolders(): Promise<Map<string, number>> {
    const [rows] = await this.pool.query<RowDataPacket[]>(
      'SELECT holder, COUNT(*) AS n FROM leases WHERE holder IS NOT NULL AND expires_at > NOW(3) GROUP BY holder',
    );
    const byInstance = new Map<string, number>();
    for (const r of rows) {
      const instance = String(r.holder).split('#')[0] ?? '';
      byInstance.set(instance, (byInstance.get(instance) ?? 0) + Number(r.n));
    }
    return byInstance;
  }

  /** Ids of every job row in MySQL. */
  async liveJobIds(): Promise<Set<string>> {
    const [rows] = await this.pool.query<RowDataPacket[]>('SELECT id FROM jobs');
    return new Set(rows.map((r) => binToId(r.id as Buffer)));
  }

  /** Succeeded and cancelled jobs still in MySQL: the archiver's backlog (dead ones wait in the DLQ). */
  async archiveBacklog(): Promise<number> {
    const [rows] = await this.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE state IN ('succeeded', 'cancelled')",
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The running claims one executor holds (its INSTANCE_ID is its claimed_by). */
  async claimsOf(owner: string): Promise<{ id: string; attempt: number }[]> {
    const [rows] = await this.pool.query<RowDataPacket[]>(
      "SELECT id, attempt FROM jobs WHERE state = 'running' AND claimed_by = ?",
      [owner],
    );
    return rows.map((r) => ({ id: binToId(r.id as Buffer), attempt: Number(r.attempt) }));
  }

  /** The oldest succeeded job still in MySQL, if any. */
  async oldestSucceeded(): Promise<string | undefined> {
    const [rows] = await this.pool.query<RowDataPacket[]>(
      "SELECT id FROM jobs WHERE state = 'succeeded' ORDER BY finished_at LIMIT 1",
    );
    return rows[0] ? binToId(rows[0].id as Buffer) : undefined;
  }

  /** Ids of every job in history (jobs_by_id, read at the client's level: LOCAL_QUORUM). */
  async historyIds(): Promise<Set<string>> {
    this.#history ??= createCassandraClient({
      contactPoints: this.#contactPoints,
      localDataCenter: 'datacenter1',
      keyspace: this.keyspace,
    });
    return idsOf(this.#history);
  }

  /** Whether history (Cassandra) holds the job. */
  async inHistory(id: string): Promise<boolean> {
    this.#history ??= createCassandraClient({
      contactPoints: this.#contactPoints,
      localDataCenter: 'datacenter1',
      keyspace: this.keyspace,
    });
    const res = await this.#history.execute('SELECT id FROM jobs_by_id WHERE id = ?', [id], {
      prepare: true,
    });
    return res.rowLength > 0;
  }

  async close(): Promise<void> {
    await this.#history?.shutdown();
    await this.pool.end();
  }
}
