import { createInterface, type Interface } from 'node:readline';
import { type Child, spawnChild } from './processes.ts';
import {
  type Member,
  mariadbReplication,
  mysqlReplication,
  type ReplicationEngine,
  type ReplicationState,
} from './replication-engines.ts';
import { waitFor } from './wait.ts';

// A primary and one replica of the harness's own (two servers, own ports and data dirs, never
// the shared server: MariaDB's mariadbd, or with `engine: 'mysql'` the MySQL leg's mysqld), GTID
// replication, semi-synchronous AFTER_SYNC or asynchronous, and the services' front door: a TCP
// relay standing in for the DNS name or proxy an operator points at the primary. The replica reads
// the primary's binary log through a second relay, the link, which can hold each chunk a while (a
// replica in another zone) and be cut. Both relays are processes of their own (relay-main.ts): a
// whole fleet's traffic goes through the front door. `failover()` is what an operator or an
// orchestrator does when the primary dies: wait for the replica to apply what it received, stop
// replicating, open it for writes, point the front door at it (docs/operations.md, the runbook).
// What differs between the engines is in replication-engines.ts.

export type { ReplicationState } from './replication-engines.ts';

export interface ReplicaSetOptions {
  semiSync: boolean;
  /** One-way delay of the replication link, ms. */
  linkDelayMs: number;
  /** The servers: MariaDB (default) or MySQL 9.7 with its own replication. */
  engine?: 'mariadb' | 'mysql';
}

export interface Takeover {
  /** What the replica had applied when it took over (compare with `deadPrimaryLog()`). */
  appliedSeq: number;
  /** Time to apply the relay log the replica had received when the primary died. */
  catchUpMs: number;
  /** When the front door pointed at the new primary (ms since the epoch). */
  switchedAt: number;
}

export interface DeadPrimaryLog {
  lastSeq: number;
  /** Lost transactions (after the replica's last applied) that wrote each table, by table. */
  lostByTable: Record<string, number>;
}

/** How many of the transactions (each the set of tables it wrote) wrote each table. */
export function tallyTables(transactions: Iterable<Set<string>>): Record<string, number> {
  const byTable: Record<string, number> = {};
  for (const tables of transactions) for (const t of tables) byTable[t] = (byTable[t] ?? 0) + 1;
  return byTable;
}

/** A relay process (relay-main.ts) and its commands. */
export class Relay {
  readonly port: number;
  readonly #child: Child;
  readonly #lines: Interface;

  private constructor(port: number, child: Child, lines: Interface) {
    this.port = port;
    this.#child = child;
    this.#lines = lines;
  }

  static async start(name: string, targetPort: number, delayMs: number, logFile: string): Promise<Relay> {
    const child = spawnChild(
      name,
      [
        process.execPath,
        new URL('./relay-main.ts', import.meta.url).pathname,
        String(targetPort),
        String(delayMs),
      ],
      { logFile, pipeStdout: true, pipeStdin: true },
    );
    const lines = createInterface({ input: child.process.stdout! });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start within 20 s`)), 20_000);
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      });
    });
    return new Relay(port, child, lines);
  }

  async #command(line: string): Promise<void> {
    const answer = new Promise<string>((resolve) => this.#lines.once('line', resolve));
    this.#child.process.stdin!.write(`${line}\n`);
    const got = await answer;
    if (got !== 'ok') throw new Error(`relay ${line}: ${got}`);
  }

  cut(): Promise<void> {
    return this.#command('cut');
  }
  restore(): Promise<void> {
    return this.#command('restore');
  }
  retarget(port: number): Promise<void> {
    return this.#command(`retarget ${port}`);
  }
  async close(): Promise<void> {
    this.#child.process.stdin!.end();
    await this.#child.stop('SIGTERM', 5000);
  }
}

export class OwnReplicaSet {
  readonly primary: Member;
  readonly replica: Member;
  readonly front: Relay;
  readonly link: Relay;
  readonly options: ReplicaSetOptions;
  readonly #engine: ReplicationEngine;
  #primaryUp = true;

  private constructor(
    engine: ReplicationEngine,
    primary: Member,
    replica: Member,
    front: Relay,
    link: Relay,
    options: ReplicaSetOptions,
  ) {
    this.#engine = engine;
    this.primary = primary;
    this.replica = replica;
    this.front = front;
    this.link = link;
    this.options = options;
  }

  static async start(dir: string, logDir: string, options: ReplicaSetOptions): Promise<OwnReplicaSet> {
    const engine = options.engine === 'mysql' ? mysqlReplication() : mariadbReplication;
    const server = engine.name === 'mysql' ? 'mysqld' : 'mariadbd';
    const primary = await engine.startMember(
      `${dir}primary`,
      `${logDir}${server}-primary.log`,
      1,
      options.semiSync,
    );
    const replica = await engine.startMember(
      `${dir}replica`,
      `${logDir}${server}-replica.log`,
      2,
      options.semiSync,
    );
    const link = await Relay.start(
      'relay-link',
      primary.port,
      options.linkDelayMs,
      `${logDir}relay-link.log`,
    );
    engine.attach(primary, replica, link.port);
    await waitFor(
      'the replica replicating',
      () => {
        engine.checkReplicating(primary, replica, options.semiSync);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const front = await Relay.start('relay-front', primary.port, 0, `${logDir}relay-front.log`);
    return new OwnReplicaSet(engine, primary, replica, front, link, options);
  }

  /** The services' URL of the server: the front door. */
  get url(): string {
    return `mysql://dsched:dsched@127.0.0.1:${this.front.port}`;
  }

  /** Where replication stands (the primary must be up). */
  state(): ReplicationState {
    return this.#engine.state(this.primary, this.replica);
  }

  /**
   * The replication link is cut (the replica's connection reset, what the relay held dropped,
   * reconnections refused): what the replica had not received by now, it never will. Called just
   * before killPrimary() it makes the in-flight transactions of an asynchronous primary a loss.
   */
  cutLink(): Promise<void> {
    return this.link.cut();
  }

  /** The primary dies (kill -9); the front door refuses connections until failover(). */
  async killPrimary(): Promise<void> {
    await this.front.cut();
    await this.primary.down('kill');
    this.#primaryUp = false;
  }

  /**
   * The replica takes over: it applies the relay log it received, stops replicating, forgets its
   * primary, opens for writes (alone: semi-sync off until a new replica joins), and the front
   * door points at it.
   */
  async failover(): Promise<Takeover> {
    const { appliedSeq, catchUpMs } = this.#engine.promote(this.replica);
    await this.front.retarget(this.replica.port);
    await this.front.restore();
    const switchedAt = Date.now();
    // Reading the dead primary's binary log (deadPrimaryLog) is the harness's accounting, not part
    // of the takeover: the caller does it after timing the first effect, since it blocks for seconds.
    return { appliedSeq, catchUpMs, switchedAt };
  }

  /**
   * What the dead primary wrote to its binary log (synced at each commit), from its files: its last
   * GTID, and of the transactions after `appliedSeq` (those the replica never applied: lost with
   * the primary) how many touched each table.
   */
  deadPrimaryLog(appliedSeq: number): DeadPrimaryLog {
    let last = 0;
    const lost = new Map<number, Set<string>>();
    for (const { seq, table } of this.#engine.binlogTransactions(this.primary)) {
      last = Math.max(last, seq);
      if (table === undefined || seq <= appliedSeq) continue;
      const tables = lost.get(seq) ?? new Set<string>();
      tables.add(table);
      lost.set(seq, tables);
    }
    return { lastSeq: last, lostByTable: tallyTables(lost.values()) };
  }

  async stop(): Promise<void> {
    await this.front.close().catch(() => undefined);
    await this.link.close().catch(() => undefined);
    if (this.#primaryUp) await this.primary.down('term').catch(() => undefined);
    await this.replica.down('term').catch(() => undefined);
  }
}
