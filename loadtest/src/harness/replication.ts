import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { type Child, spawnChild } from './processes.ts';
import { OwnMariadb } from './stack.ts';
import { waitFor } from './wait.ts';

// A primary and one replica of the harness's own (two mariadbd, own ports and data dirs, never
// the shared server), GTID replication, semi-synchronous AFTER_SYNC or asynchronous, and the
// services' front door: a TCP relay standing in for the DNS name or proxy an operator points at
// the primary. The replica reads the primary's binary log through a second relay, the link, which
// can hold each chunk a while (a replica in another zone). Both relays are processes of their own
// (relay-main.ts): a whole fleet's traffic goes through the front door. `failover()` is what an operator or an
// orchestrator does when the primary dies: wait for the replica to apply what it received, stop
// replicating, open it for writes, point the front door at it (docs/operations.md, the runbook).

export interface ReplicaSetOptions {
  semiSync: boolean;
  /** One-way delay of the replication link, ms. */
  linkDelayMs: number;
}

export interface ReplicationState {
  /** The primary's last binary-logged GTID sequence number (domain 0). */
  primarySeq: number;
  /** The last the replica received (IO thread) and applied (SQL threads). */
  receivedSeq: number;
  appliedSeq: number;
  /** Semi-sync: the primary's status (1 on), commits acknowledged by the replica, and not. */
  semiSyncOn: number;
  semiSyncYesTx: number;
  semiSyncNoTx: number;
}

export interface Takeover {
  /** What the replica had applied when it took over (compare with `deadPrimarySeq()`). */
  appliedSeq: number;
  /** Time to apply the relay log the replica had received when the primary died. */
  catchUpMs: number;
  /** When the front door pointed at the new primary (ms since the epoch). */
  switchedAt: number;
}

const seqOf = (gtids: string): number => {
  // "0-1-1234" or "0-1-1234,1-2-5": domain 0's sequence number.
  const m = gtids.match(/(?:^|,)\s*0-\d+-(\d+)/);
  return m ? Number(m[1]) : 0;
};

const slaveStatus = (db: OwnMariadb): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const line of db.rootSql('SHOW SLAVE STATUS\\G', true).split('\n')) {
    const m = line.match(/^\s*(\w+): ?(.*)$/);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
};

const globalStatus = (db: OwnMariadb, name: string): number =>
  Number(db.rootSql(`SHOW GLOBAL STATUS LIKE '${name}'`).split('\t')[1] ?? Number.NaN);

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
  readonly primary: OwnMariadb;
  readonly replica: OwnMariadb;
  readonly front: Relay;
  readonly link: Relay;
  readonly options: ReplicaSetOptions;
  #primaryUp = true;

  private constructor(
    primary: OwnMariadb,
    replica: OwnMariadb,
    front: Relay,
    link: Relay,
    options: ReplicaSetOptions,
  ) {
    this.primary = primary;
    this.replica = replica;
    this.front = front;
    this.link = link;
    this.options = options;
  }

  static async start(dir: string, logDir: string, options: ReplicaSetOptions): Promise<OwnReplicaSet> {
    const semi = options.semiSync ? 'ON' : 'OFF';
    // Both can be primary: a binary log with their own applied transactions in it, GTIDs checked
    // strictly; semi-sync acknowledged after the binary log is synced and before the commit is
    // visible (AFTER_SYNC), so a commit a client saw is on the replica. A replica that does not
    // acknowledge within 30 s turns the primary asynchronous (counted: Rpl_semi_sync_master_no_tx).
    const member = (id: number) => [
      `--server-id=${id}`,
      '--log-bin=binlog',
      '--binlog-format=ROW',
      '--log-slave-updates=ON',
      '--sync-binlog=1',
      '--gtid-strict-mode=ON',
      `--rpl-semi-sync-master-enabled=${id === 1 ? semi : 'OFF'}`,
      '--rpl-semi-sync-master-wait-point=AFTER_SYNC',
      '--rpl-semi-sync-master-timeout=30000',
      `--rpl-semi-sync-slave-enabled=${semi}`,
      '--slave-parallel-threads=4',
      '--skip-slave-start',
    ];
    const primary = await OwnMariadb.start(`${dir}primary`, `${logDir}mariadbd-primary.log`, member(1));
    const replica = await OwnMariadb.start(`${dir}replica`, `${logDir}mariadbd-replica.log`, [
      ...member(2),
      '--read-only=ON',
    ]);
    primary.rootSql(`CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl';
GRANT REPLICATION SLAVE, REPLICATION SLAVE ADMIN ON *.* TO 'repl'@'127.0.0.1';`);
    const link = await Relay.start(
      'relay-link',
      primary.port,
      options.linkDelayMs,
      `${logDir}relay-link.log`,
    );
    replica.rootSql(`SET GLOBAL gtid_slave_pos = '';
CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ${link.port}, MASTER_USER = 'repl',
  MASTER_PASSWORD = 'repl', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1;
START SLAVE;`);
    await waitFor(
      'the replica replicating',
      () => {
        const s = slaveStatus(replica);
        if (s.Slave_IO_Running !== 'Yes' || s.Slave_SQL_Running !== 'Yes') throw new Error(JSON.stringify(s));
        if (options.semiSync && globalStatus(primary, 'Rpl_semi_sync_master_clients') !== 1)
          throw new Error('semi-sync: no client yet');
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const front = await Relay.start('relay-front', primary.port, 0, `${logDir}relay-front.log`);
    return new OwnReplicaSet(primary, replica, front, link, options);
  }

  /** The services' URL of the server: the front door. */
  get url(): string {
    return `mysql://dsched:dsched@127.0.0.1:${this.front.port}`;
  }

  /** Where replication stands (the primary must be up). */
  state(): ReplicationState {
    const s = slaveStatus(this.replica);
    return {
      primarySeq: seqOf(this.primary.rootSql('SELECT @@gtid_binlog_pos')),
      receivedSeq: seqOf(s.Gtid_IO_Pos ?? ''),
      appliedSeq: seqOf(this.replica.rootSql('SELECT @@gtid_slave_pos')),
      semiSyncOn: this.primary.rootSql("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_status'").includes('ON')
        ? 1
        : 0,
      semiSyncYesTx: globalStatus(this.primary, 'Rpl_semi_sync_master_yes_tx'),
      semiSyncNoTx: globalStatus(this.primary, 'Rpl_semi_sync_master_no_tx'),
    };
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
    const t0 = Date.now();
    const received = slaveStatus(this.replica).Gtid_IO_Pos ?? '';
    const waited = this.replica.rootSql(`SELECT MASTER_GTID_WAIT('${received}', 120)`).trim();
    if (waited !== '0') throw new Error(`the replica did not apply ${received} within 120 s (${waited})`);
    const catchUpMs = Date.now() - t0;
    this.replica.rootSql(`STOP SLAVE;
RESET SLAVE ALL;
SET GLOBAL rpl_semi_sync_master_enabled = OFF;
SET GLOBAL read_only = OFF;`);
    const appliedSeq = seqOf(this.replica.rootSql('SELECT @@gtid_slave_pos'));
    await this.front.retarget(this.replica.port);
    await this.front.restore();
    const switchedAt = Date.now();
    // Reading the dead primary's binary log (deadPrimarySeq) is the harness's accounting, not part
    // of the takeover: the caller does it after timing the first effect, since it blocks for seconds.
    return { appliedSeq, catchUpMs, switchedAt };
  }

  /** The last GTID the dead primary wrote to its binary log (synced at each commit), from its files. */
  deadPrimarySeq(): number {
    const data = `${this.primary.dir}/data`;
    const files = readdirSync(data)
      .filter((f) => /^binlog\.\d+$/.test(f))
      .sort();
    let last = 0;
    for (const f of files.slice(-2)) {
      const text = execFileSync('mariadb-binlog', ['--no-defaults', `${data}/${f}`], {
        encoding: 'utf8',
        maxBuffer: 1024 * 1024 * 1024,
        env: { ...process.env, PATH: `${process.env.PATH}:/usr/bin` },
      });
      for (const m of text.matchAll(/\bGTID 0-\d+-(\d+)/g)) last = Math.max(last, Number(m[1]));
    }
    return last;
  }

  async stop(): Promise<void> {
    await this.front.close().catch(() => undefined);
    await this.link.close().catch(() => undefined);
    if (this.#primaryUp) await this.primary.down('term').catch(() => undefined);
    await this.replica.down('term').catch(() => undefined);
  }
}
