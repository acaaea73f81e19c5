import { createServer, type Server, type Socket } from 'node:net';

// A TCP relay on loopback in front of a server (MySQL, Cassandra), that a test can cut like a
// network partition while the server itself keeps running:
// - `blackhole()` stops relaying in both directions and holds new connections without answering,
//   so clients hang instead of failing fast (packets dropped);
// - `cut()` destroys every relayed connection and resets each new one as soon as it is accepted,
//   so clients fail fast, as they would with the server down (connection refused or reset).
// `restore()` ends either; `stats()` counts what it relayed and refused. `retarget()` sends new
// connections to another server (a DNS name or a proxy moved to a promoted replica); `delayMs`
// holds every chunk that long in each direction (a link to another zone; not with `blackhole()`).

export interface TcpProxy {
  port: number;
  blackhole(): void;
  cut(): void;
  restore(): void;
  retarget(target: { host: string; port: number }): void;
  stats(): { accepted: number; refused: number; open: number };
  close(): Promise<void>;
}

export async function startTcpProxy(
  initial: { host: string; port: number },
  options: { delayMs?: number } = {},
): Promise<TcpProxy> {
  let target = initial;
  const delayMs = options.delayMs ?? 0;
  let mode: 'open' | 'blackhole' | 'cut' = 'open';
  let accepted = 0;
  let refused = 0;
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'cut') {
      refused++;
      client.resetAndDestroy();
      return;
    }
    if (mode === 'blackhole') {
      client.pause();
      return;
    }
    accepted++;
    const upstream = new (client.constructor as typeof Socket)();
    const pair: [Socket, Socket] = [client, upstream];
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      pairs.delete(pair);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.connect(target.port, target.host);
    if (delayMs > 0) {
      // Timers of one delay fire in the order they were set: the stream's order is kept.
      const late = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs));
      late(client, upstream);
      late(upstream, client);
    } else {
      client.pipe(upstream);
      upstream.pipe(client);
    }
    pairs.add(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    blackhole: () => {
      mode = 'blackhole';
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
    },
    cut: () => {
      mode = 'cut';
      for (const [a, b] of pairs) {
        a.resetAndDestroy();
        b.destroy();
      }
      pairs.clear();
    },
    restore: () => {
      mode = 'open';
      for (const [a, b] of pairs) {
        a.pipe(b);
        b.pipe(a);
        a.resume();
        b.resume();
      }
    },
    retarget: (next) => {
      target = next;
    },
    stats: () => ({ accepted, refused, open: pairs.size }),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
