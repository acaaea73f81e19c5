import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { type CassandraClient, createCassandraClient } from '@dsched/cassandra/client';
import cassandra from 'cassandra-driver';
import { REPO_ROOT } from './paths.ts';
import { type Child, spawnChild } from './processes.ts';
import { waitFor } from './wait.ts';

// A Cassandra cluster of the harness's own (cassandra-node-down): three nodes on 127.0.0.2–4, on
// ports free on all three (never the shared node's 127.0.0.1:9042, nor the stack's cluster's
// 9042/7000 on the same addresses), data in the run's scratch, each node a child process started
// by scripts/lib/cassandra-node.sh (which becomes the JVM: a kill of the child is a kill -9 of the
// node). Commit log synced before a write is acknowledged, as scripts/stack's cluster.

export interface ClusterOptions {
  nodes: number;
  /** Heap of each node (e.g. 512M). */
  heap: string;
  /** Hinted handoff on (the default) or off (to show what a node lacks without it). */
  hints: boolean;
}

interface Node {
  index: number;
  address: string;
  dir: string;
  child: Child | undefined;
}

/** A port free for listening on every one of the addresses. */
async function portFreeOn(addresses: string[]): Promise<number> {
  const listen = (port: number, host: string) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on('error', reject);
      server.listen(port, host, () => {
        const a = server.address();
        server.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
      });
    });
  for (let tries = 0; tries < 50; tries++) {
    const port = await listen(0, addresses[0]!);
    try {
      for (const a of addresses.slice(1)) await listen(port, a);
      return port;
    } catch {
      // taken on another address: try another
    }
  }
  throw new Error(`no port free on all of ${addresses.join(', ')}`);
}

const stackOutput = (command: string) =>
  execFileSync('bash', [`${REPO_ROOT}scripts/stack`, command], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();

export class OwnCassandraCluster {
  readonly nativePort: number;
  readonly storagePort: number;
  readonly options: ClusterOptions;
  readonly #nodes: Node[];
  readonly #logDir: string;
  readonly #lib: string;
  readonly #java: string;

  private constructor(dir: string, logDir: string, options: ClusterOptions, ports: [number, number]) {
    this.options = options;
    this.#logDir = logDir;
    [this.nativePort, this.storagePort] = ports;
    this.#nodes = Array.from({ length: options.nodes }, (_, index) => ({
      index,
      address: `127.0.0.${index + 2}`,
      dir: `${dir}node${index}`,
      child: undefined,
    }));
    this.#lib = stackOutput('cassandra-jars');
    this.#java = stackOutput('cassandra-java');
  }

  /** Starts the seed, then the others together, and waits until every node answers CQL. */
  static async start(dir: string, logDir: string, options: ClusterOptions): Promise<OwnCassandraCluster> {
    const addresses = Array.from({ length: options.nodes }, (_, i) => `127.0.0.${i + 2}`);
    const native = await portFreeOn(addresses);
    let storage = await portFreeOn(addresses);
    while (storage === native) storage = await portFreeOn(addresses);
    const cluster = new OwnCassandraCluster(dir, logDir, options, [native, storage]);
    // A node that finds no seed to gossip with at start gives up: the seed first.
    await cluster.startNode(0);
    await Promise.all(cluster.#nodes.slice(1).map((n) => cluster.startNode(n.index)));
    return cluster;
  }

  get contactPoints(): string[] {
    return this.#nodes.map((n) => `${n.address}:${this.nativePort}`);
  }

  address(index: number): string {
    return this.#nodes[index]!.address;
  }

  running(index: number): boolean {
    return this.#nodes[index]?.child?.running() ?? false;
  }

  /** Starts (or restarts, on the same data) one node and waits until it answers CQL (300 s). */
  async startNode(index: number): Promise<void> {
    const node = this.#nodes[index]!;
    node.child = spawnChild(`cassandra-${index}`, ['bash', `${REPO_ROOT}scripts/lib/cassandra-node.sh`], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/root',
        CASSANDRA_NODE_DIR: node.dir,
        CASSANDRA_NODE_ADDRESS: node.address,
        CASSANDRA_NODE_NATIVE_PORT: String(this.nativePort),
        CASSANDRA_NODE_STORAGE_PORT: String(this.storagePort),
        CASSANDRA_NODE_SEEDS: `${this.#nodes[0]!.address}:${this.storagePort}`,
        CASSANDRA_NODE_INDEX: String(index),
        CASSANDRA_NODE_COUNT: String(this.#nodes.length),
        CASSANDRA_NODE_CLUSTER: 'dsched-loadtest',
        CASSANDRA_NODE_HEAP: this.options.heap,
        CASSANDRA_NODE_COMMITLOG: 'group',
        CASSANDRA_NODE_HINTS: String(this.options.hints),
        CASSANDRA_LIB: this.#lib,
        CASSANDRA_JAVA: this.#java,
      },
      logFile: `${this.#logDir}cassandra-${index}.log`,
    });
    const child = node.child;
    await waitFor(
      `cassandra node ${node.address}:${this.nativePort}`,
      async () => {
        if (!child.running()) throw new Error(`exited (${this.#logDir}cassandra-${index}.log)`);
        return this.#answers(index);
      },
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
  }

  /** kill -9 of one node: a crash. */
  async kill(index: number): Promise<void> {
    const child = this.#nodes[index]?.child;
    if (!child?.running()) return;
    child.kill('SIGKILL');
    await child.exited;
  }

  /** Whether the node answers a query about itself, on its own address. */
  async #answers(index: number): Promise<boolean> {
    const client = this.nodeClient(index);
    try {
      const row = (await client.execute('SELECT host_id FROM system.local')).first();
      return row !== null;
    } catch {
      return false;
    } finally {
      await client.shutdown().catch(() => undefined);
    }
  }

  /**
   * A client that talks to this node alone (every other host ignored): with consistency ONE and
   * the others down, what it reads is what this node holds.
   */
  nodeClient(index: number, keyspace?: string): CassandraClient {
    const point = `${this.#nodes[index]!.address}:${this.nativePort}`;
    return new cassandra.Client({
      contactPoints: [point],
      localDataCenter: 'datacenter1',
      ...(keyspace ? { keyspace } : {}),
      policies: {
        loadBalancing: new cassandra.policies.loadBalancing.AllowListPolicy(
          new cassandra.policies.loadBalancing.RoundRobinPolicy(),
          [point],
        ),
      },
      queryOptions: { consistency: cassandra.types.consistencies.one, prepare: true },
      socketOptions: { connectTimeout: 5_000, readTimeout: 30_000 },
    });
  }

  /** A client of the whole cluster, LOCAL_QUORUM like the services. */
  client(keyspace?: string): CassandraClient {
    return createCassandraClient({
      contactPoints: this.contactPoints,
      localDataCenter: 'datacenter1',
      ...(keyspace ? { keyspace } : {}),
    });
  }

  /**
   * The hints one node holds for others: files and bytes on its disk (its hints folder, which this
   * harness owns), and the files it reports for each target (system_views.pending_hints).
   */
  async hintsOn(index: number): Promise<{ files: number; bytes: number; forTargets: Map<string, number> }> {
    const dir = `${this.#nodes[index]!.dir}/data/hints`;
    let files = 0;
    let bytes = 0;
    try {
      for (const f of readdirSync(dir))
        if (f.endsWith('.hints')) {
          files++;
          bytes += statSync(`${dir}/${f}`).size;
        }
    } catch {
      // no hints folder yet
    }
    const forTargets = new Map<string, number>();
    const client = this.nodeClient(index);
    try {
      for (const row of (await client.execute('SELECT address, files FROM system_views.pending_hints')).rows)
        forTargets.set(String(row.get('address')), Number(row.get('files')));
    } finally {
      await client.shutdown().catch(() => undefined);
    }
    return { files, bytes, forTargets };
  }

  async stop(): Promise<void> {
    await Promise.all(this.#nodes.map((n) => n.child?.stop('SIGTERM', 30_000)));
  }
}
