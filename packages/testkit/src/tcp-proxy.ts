import { createServer, type Server, type Socket } from 'node:net';

// A TCP relay on loopback in front of a server (MySQL), that a test can cut like a network
// partition: `blackhole()` stops relaying in both directions and holds new connections without
// answering, so clients hang instead of failing fast. The server itself keeps running.

export interface TcpProxy {
  port: number;
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  const pairs: [Socket, Socket][] = [];
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (cut) {
      client.pause();
      return;
    }
    const upstream = new (client.constructor as typeof Socket)();
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
    pairs.push([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    blackhole: () => {
      cut = true;
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
    },
    restore: () => {
      cut = false;
      for (const [a, b] of pairs) {
        a.pipe(b);
        b.pipe(a);
        a.resume();
        b.resume();
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
