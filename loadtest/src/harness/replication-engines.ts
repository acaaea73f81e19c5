import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { OwnMysql } from './own-mysql.ts';
import { OwnMariadb } from './stack.ts';

// What differs between MariaDB's replication and MySQL's, for the replica set of replication.ts:
// the servers' options, the statements that attach, watch and promote a replica, where positions
// are read, and how the dead primary's binary log names its transactions. The set itself (relays,
// the order of a failover, the accounting) is the same for both.

/** A server of the set. */
export interface Member {
  readonly dir: string;
  readonly port: number;
  rootSql(sql: string, names?: boolean): string;
  down(how: 'kill' | 'term'): Promise<void>;
}

export interface ReplicationState {
  /** The primary's last binary-logged GTID sequence number (its own transactions). */
  primarySeq: number;
  /** The last the replica received (IO thread) and applied (SQL threads). */
  receivedSeq: number;
  appliedSeq: number;
  /** Semi-sync: the primary's status (1 on), commits acknowledged by the replica, and not. */
  semiSyncOn: number;
  semiSyncYesTx: number;
  semiSyncNoTx: number;
}

export interface ReplicationEngine {
  readonly name: 'mariadb' | 'mysql';
  /** Starts member `id` (1: the primary): binary log, GTIDs, semi-sync AFTER_SYNC when asked. */
  startMember(dir: string, logFile: string, id: number, semiSync: boolean): Promise<Member>;
  /** The replication user on the primary, the replica attached to it through `linkPort`. */
  attach(primary: Member, replica: Member, linkPort: number): void;
  /** Throws until the replica replicates (and, semi-sync, the primary counts it as its client). */
  checkReplicating(primary: Member, replica: Member, semiSync: boolean): void;
  state(primary: Member, replica: Member): ReplicationState;
  /**
   * The replica takes over, without its primary: it applies what it received, stops replicating,
   * forgets its primary and opens for writes (alone: semi-sync off until a new replica joins).
   */
  promote(replica: Member): { appliedSeq: number; catchUpMs: number };
  /** The primary's own transactions in its binary log files: their numbers and the tables written. */
  binlogTransactions(primary: Member): Iterable<{ seq: number; table?: string }>;
}

const statusOf = (db: Member, sql: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const line of db.rootSql(sql, true).split('\n')) {
    const m = line.match(/^\s*(\w+): ?(.*)$/);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
};

const globalStatus = (db: Member, name: string): number =>
  Number(db.rootSql(`SHOW GLOBAL STATUS LIKE '${name}'`).split('\t')[1] ?? Number.NaN);

/** The binary log files of a member's data dir, oldest first (the last two are read). */
const binlogFiles = (db: Member) =>
  readdirSync(`${db.dir}/data`)
    .filter((f) => /^binlog\.\d+$/.test(f))
    .sort()
    .slice(-2)
    .map((f) => `${db.dir}/data/${f}`);

/** GTID numbers and Table_map events of a decoded binary log, in order. */
function* transactions(texts: string[], gtid: RegExp): Iterable<{ seq: number; table?: string }> {
  const events = new RegExp(`${gtid.source}|\\bTable_map: \`[^\`]*\`\\.\`([^\`]+)\``, 'g');
  let seq = 0;
  for (const text of texts)
    for (const m of text.matchAll(events)) {
      if (m[1] !== undefined) {
        seq = Number(m[1]);
        yield { seq };
      } else yield { seq, table: m[2]! };
    }
}

export const mariadbReplication: ReplicationEngine = {
  name: 'mariadb',
  startMember(dir, logFile, id, semiSync) {
    const semi = semiSync ? 'ON' : 'OFF';
    // Both can be primary: a binary log with their own applied transactions in it, GTIDs checked
    // strictly; semi-sync acknowledged after the binary log is synced and before the commit is
    // visible (AFTER_SYNC), so a commit a client saw is on the replica. A replica that does not
    // acknowledge within 30 s turns the primary asynchronous (counted: Rpl_semi_sync_master_no_tx).
    return OwnMariadb.start(dir, logFile, [
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
      ...(id === 1 ? [] : ['--read-only=ON']),
    ]);
  },
  attach(primary, replica, linkPort) {
    primary.rootSql(`CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl';
GRANT REPLICATION SLAVE, REPLICATION SLAVE ADMIN ON *.* TO 'repl'@'127.0.0.1';`);
    replica.rootSql(`SET GLOBAL gtid_slave_pos = '';
CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ${linkPort}, MASTER_USER = 'repl',
  MASTER_PASSWORD = 'repl', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1;
START SLAVE;`);
  },
  checkReplicating(primary, replica, semiSync) {
    const s = statusOf(replica, 'SHOW SLAVE STATUS\\G');
    if (s.Slave_IO_Running !== 'Yes' || s.Slave_SQL_Running !== 'Yes') throw new Error(JSON.stringify(s));
    if (semiSync && globalStatus(primary, 'Rpl_semi_sync_master_clients') !== 1)
      throw new Error('semi-sync: no client yet');
  },
  state(primary, replica) {
    // "0-1-1234" or "0-1-1234,1-2-5": domain 0's sequence number.
    const seqOf = (gtids: string) => Number(gtids.match(/(?:^|,)\s*0-\d+-(\d+)/)?.[1] ?? 0);
    const s = statusOf(replica, 'SHOW SLAVE STATUS\\G');
    return {
      primarySeq: seqOf(primary.rootSql('SELECT @@gtid_binlog_pos')),
      receivedSeq: seqOf(s.Gtid_IO_Pos ?? ''),
      appliedSeq: seqOf(replica.rootSql('SELECT @@gtid_slave_pos')),
      semiSyncOn: primary.rootSql("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_status'").includes('ON')
        ? 1
        : 0,
      semiSyncYesTx: globalStatus(primary, 'Rpl_semi_sync_master_yes_tx'),
      semiSyncNoTx: globalStatus(primary, 'Rpl_semi_sync_master_no_tx'),
    };
  },
  promote(replica) {
    const t0 = Date.now();
    const received = statusOf(replica, 'SHOW SLAVE STATUS\\G').Gtid_IO_Pos ?? '';
    const waited = replica.rootSql(`SELECT MASTER_GTID_WAIT('${received}', 120)`).trim();
    if (waited !== '0') throw new Error(`the replica did not apply ${received} within 120 s (${waited})`);
    const catchUpMs = Date.now() - t0;
    replica.rootSql(`STOP SLAVE;
RESET SLAVE ALL;
SET GLOBAL rpl_semi_sync_master_enabled = OFF;
SET GLOBAL read_only = OFF;`);
    const appliedSeq = Number(
      replica.rootSql('SELECT @@gtid_slave_pos').match(/(?:^|,)\s*0-\d+-(\d+)/)?.[1] ?? 0,
    );
    return { appliedSeq, catchUpMs };
  },
  binlogTransactions(primary) {
    const texts = binlogFiles(primary).map((f) =>
      execFileSync('mariadb-binlog', ['--no-defaults', f], {
        encoding: 'utf8',
        maxBuffer: 1024 * 1024 * 1024,
        env: { ...process.env, PATH: `${process.env.PATH}:/usr/bin` },
      }),
    );
    return transactions(texts, /\bGTID 0-\d+-(\d+)/);
  },
};

/**
 * MySQL 9.7's own replication: GTID mode, the semi-sync source and replica plugins (AFTER_SYNC),
 * `CHANGE REPLICATION SOURCE … SOURCE_AUTO_POSITION`. A member's own transactions are those of its
 * `server_uuid` in a GTID set ("uuid:1-1234").
 */
export function mysqlReplication(): ReplicationEngine {
  const uuids = new Map<Member, string>();
  const uuidOf = (db: Member) => {
    let u = uuids.get(db);
    if (!u) {
      u = db.rootSql('SELECT @@server_uuid').trim();
      uuids.set(db, u);
    }
    return u;
  };
  /** The highest number of `uuid`'s transactions in a GTID set. */
  const seqIn = (set: string, uuid: string) => {
    const part = set
      .replace(/\s+/g, '')
      .split(',')
      .find((p) => p.startsWith(`${uuid}:`));
    if (!part) return 0;
    return Math.max(
      ...part
        .slice(uuid.length + 1)
        .split(':')
        .map((r) => Number(r.split('-').pop())),
    );
  };
  const received = (replica: Member) =>
    replica.rootSql('SELECT RECEIVED_TRANSACTION_SET FROM performance_schema.replication_connection_status');
  let primaryUuid = '';
  return {
    name: 'mysql',
    async startMember(dir, logFile, id, semiSync) {
      const semi = semiSync ? 'ON' : 'OFF';
      const db = await OwnMysql.start(dir, logFile, [
        `--server-id=${id}`,
        '--log-bin=binlog',
        '--log-replica-updates=ON',
        '--sync-binlog=1',
        '--gtid-mode=ON',
        '--enforce-gtid-consistency=ON',
        '--plugin-load-add=semisync_source.so',
        '--plugin-load-add=semisync_replica.so',
        `--loose-rpl-semi-sync-source-enabled=${id === 1 ? semi : 'OFF'}`,
        '--loose-rpl-semi-sync-source-wait-point=AFTER_SYNC',
        '--loose-rpl-semi-sync-source-timeout=30000',
        `--loose-rpl-semi-sync-replica-enabled=${semi}`,
        '--replica-parallel-workers=4',
        '--skip-replica-start',
        ...(id === 1 ? [] : ['--read-only=ON']),
      ]);
      if (id === 1) primaryUuid = uuidOf(db);
      return db;
    },
    attach(primary, replica, linkPort) {
      primary.rootSql(`SET SESSION sql_log_bin = 0;
CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl';
GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';`);
      // No TLS on the link (the relay is plain TCP): the password goes RSA-encrypted with the
      // source's public key, which the replica asks for.
      replica.rootSql(`CHANGE REPLICATION SOURCE TO SOURCE_HOST = '127.0.0.1', SOURCE_PORT = ${linkPort},
  SOURCE_USER = 'repl', SOURCE_PASSWORD = 'repl', SOURCE_AUTO_POSITION = 1, SOURCE_CONNECT_RETRY = 1,
  SOURCE_RETRY_COUNT = 86400, GET_SOURCE_PUBLIC_KEY = 1;
START REPLICA;`);
    },
    checkReplicating(primary, replica, semiSync) {
      const s = statusOf(replica, 'SHOW REPLICA STATUS\\G');
      if (s.Replica_IO_Running !== 'Yes' || s.Replica_SQL_Running !== 'Yes')
        throw new Error(JSON.stringify(s));
      if (semiSync && globalStatus(primary, 'Rpl_semi_sync_source_clients') !== 1)
        throw new Error('semi-sync: no client yet');
    },
    state(primary, replica) {
      // The replica first: read after it, the primary is never behind what it sent.
      const appliedSeq = seqIn(replica.rootSql('SELECT @@GLOBAL.gtid_executed'), primaryUuid);
      const receivedSeq = seqIn(received(replica), primaryUuid);
      return {
        primarySeq: seqIn(primary.rootSql('SELECT @@GLOBAL.gtid_executed'), primaryUuid),
        receivedSeq,
        appliedSeq,
        semiSyncOn: primary.rootSql("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_source_status'").includes('ON')
          ? 1
          : 0,
        semiSyncYesTx: globalStatus(primary, 'Rpl_semi_sync_source_yes_tx'),
        semiSyncNoTx: globalStatus(primary, 'Rpl_semi_sync_source_no_tx'),
      };
    },
    promote(replica) {
      const t0 = Date.now();
      // The received set may end in a transaction only partly received (MySQL says so of
      // RECEIVED_TRANSACTION_SET): stop receiving, then wait until the applier has read all of the
      // relay log rather than for a set that may never complete.
      replica.rootSql('STOP REPLICA IO_THREAD;');
      waitForSync('the replica applying its relay log', () => {
        const s = statusOf(replica, 'SHOW REPLICA STATUS\\G');
        if (!/has read all relay log/.test(s.Replica_SQL_Running_State ?? ''))
          throw new Error(JSON.stringify(s));
      });
      const catchUpMs = Date.now() - t0;
      replica.rootSql(`STOP REPLICA;
RESET REPLICA ALL;
SET GLOBAL rpl_semi_sync_source_enabled = OFF;
SET GLOBAL super_read_only = OFF;
SET GLOBAL read_only = OFF;`);
      return { appliedSeq: seqIn(replica.rootSql('SELECT @@GLOBAL.gtid_executed'), primaryUuid), catchUpMs };
    },
    binlogTransactions(primary) {
      const db = primary as OwnMysql;
      const [file, ...args] = db.binlogReader();
      const texts = binlogFiles(primary).map((f) =>
        execFileSync(file!, [...args, f], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 }),
      );
      return transactions(texts, new RegExp(`GTID_NEXT= '${primaryUuid}:(\\d+)'`));
    },
  };
}

/** Polls `check` (which throws until it holds) for up to 120 s, synchronously. */
function waitForSync(what: string, check: () => void): void {
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > until) throw new Error(`${what}: not within 120 s (${(err as Error).message})`);
      execFileSync('sleep', ['0.05']);
    }
  }
}
