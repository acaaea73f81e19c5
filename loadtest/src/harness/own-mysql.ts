import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { freePort } from '@dsched/testkit/ports';
import { REPO_ROOT } from './paths.ts';
import { type Child, spawnChild } from './processes.ts';
import { waitFor } from './wait.ts';

// A MySQL 9.7 server of the harness's own (the MySQL leg's package, scripts/lib/mysql-sid.sh: a
// Debian-unstable tree run by its own loader, no chroot), on its own port and data dir: what
// OwnMariadb is for MariaDB, for the fault scenarios that stop a server (mysql-failover --mysql 1).

/** The tree's program `name` as an argv prefix (its loader and libraries), and the tree's root. */
function treeProgram(name: string): { argv: string[]; tree: string } {
  const line = execFileSync('bash', [`${REPO_ROOT}scripts/lib/mysql-sid.sh`, 'bin', name], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const argv = line.split(/\s+/);
  const program = argv[argv.length - 1]!;
  // …/sid/usr/sbin/mysqld → …/sid
  return { argv, tree: program.replace(/\/usr\/s?bin\/[^/]+$/, '') };
}

export class OwnMysql {
  readonly dir: string;
  readonly port: number;
  readonly #logFile: string;
  readonly #extraArgs: string[];
  readonly #tree: string;
  readonly #mysqld: string[];
  readonly #client: string[];
  #child: Child | undefined;

  private constructor(dir: string, port: number, logFile: string, extraArgs: string[]) {
    this.dir = dir;
    this.port = port;
    this.#logFile = logFile;
    this.#extraArgs = extraArgs;
    const mysqld = treeProgram('mysqld');
    this.#tree = mysqld.tree;
    this.#mysqld = [
      ...mysqld.argv,
      '--no-defaults',
      `--basedir=${this.#tree}/usr`,
      `--lc-messages-dir=${this.#tree}/usr/share/mysql`,
      `--character-sets-dir=${this.#tree}/usr/share/mysql/charsets`,
      `--plugin-dir=${this.#tree}/usr/lib/mysql/plugin`,
    ];
    this.#client = [
      ...treeProgram('mysql').argv,
      '--no-defaults',
      `--character-sets-dir=${this.#tree}/usr/share/mysql/charsets`,
    ];
  }

  /** `extraArgs`: a replication member's server id, binary log, GTID mode and semi-sync. */
  static async start(dir: string, logFile: string, extraArgs: string[] = []): Promise<OwnMysql> {
    const db = new OwnMysql(dir, await freePort(), logFile, extraArgs);
    if (!existsSync(`${dir}/data/mysql`)) {
      mkdirSync(dir, { recursive: true });
      const [file, ...args] = db.#mysqld;
      execFileSync(
        file!,
        [
          ...args,
          '--initialize-insecure',
          `--user=${process.env.USER ?? 'root'}`,
          `--datadir=${dir}/data`,
          `--log-error=${dir}/error.log`,
          '--innodb-redo-log-capacity=256M',
          '--secure-file-priv=NULL',
        ],
        { stdio: 'ignore' },
      );
    }
    await db.up();
    // Each server's own users, kept out of its binary log (a replica's would be transactions of
    // its own that its primary never had).
    db.rootSql(`SET SESSION sql_log_bin = 0;
CREATE USER IF NOT EXISTS 'dsched'@'127.0.0.1' IDENTIFIED BY 'dsched';
GRANT ALL PRIVILEGES ON *.* TO 'dsched'@'127.0.0.1' WITH GRANT OPTION;`);
    return db;
  }

  /** Runs SQL as root over the socket; tab-separated output, column names only with `names`. */
  rootSql(sql: string, names = false): string {
    const [file, ...args] = this.#client;
    // MySQL's client takes no `\G` from a pipe: a statement that ends in one is printed vertically.
    const vertical = /\\G\s*$/.test(sql);
    if (vertical) args.push('--vertical');
    return execFileSync(
      file!,
      [...args, `--socket=${this.dir}/mysqld.sock`, '-uroot', '-B', ...(names ? [] : ['-N'])],
      {
        input: vertical ? sql.replace(/\\G\s*$/, '') : sql,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
  }

  get url(): string {
    return `mysql://dsched:dsched@127.0.0.1:${this.port}`;
  }

  /** The tree's `mysqlbinlog` as an argv prefix. */
  binlogReader(): string[] {
    return [...treeProgram('mysqlbinlog').argv, '--no-defaults'];
  }

  /** Starts (or restarts) the server on the same port and data and waits until it answers. */
  async up(): Promise<void> {
    // The MySQL leg's flags (scripts/lib/mysql-sid.sh), with a smaller buffer pool: this one is per run.
    const [file, ...args] = this.#mysqld;
    this.#child = spawnChild(
      'mysqld-own',
      [
        file!,
        ...args,
        `--user=${process.env.USER ?? 'root'}`,
        `--datadir=${this.dir}/data`,
        `--socket=${this.dir}/mysqld.sock`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${this.dir}/mysqld.pid`,
        `--log-error=${this.dir}/error.log`,
        '--mysqlx=OFF',
        '--secure-file-priv=NULL',
        '--skip-name-resolve',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_bin',
        '--transaction-isolation=READ-COMMITTED',
        '--max-connections=1000',
        '--innodb-buffer-pool-size=512M',
        '--innodb-redo-log-capacity=256M',
        '--innodb-flush-log-at-trx-commit=1',
        '--innodb-lock-wait-timeout=10',
        '--max-allowed-packet=64M',
        ...this.#extraArgs,
      ],
      { logFile: this.#logFile },
    );
    await waitFor(
      `own mysqld on ${this.port}`,
      () => {
        const [file, ...args] = this.#client;
        execFileSync(file!, [...args, `--socket=${this.dir}/mysqld.sock`, '-uroot', '-e', 'SELECT 1'], {
          stdio: 'ignore',
        });
        return true;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
  }

  /** Stops it: SIGKILL (a crash) or SIGTERM (a clean shutdown). */
  async down(how: 'kill' | 'term'): Promise<void> {
    if (!this.#child) return;
    if (how === 'kill') this.#child.kill('SIGKILL');
    await this.#child.stop('SIGTERM', 60_000);
    this.#child = undefined;
  }
}
