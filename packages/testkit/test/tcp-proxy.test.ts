import { createServer, type Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../src/tcp-proxy.ts';

// The relay the failover scenario puts on the replica's link (loadtest/src/harness/replication.ts):
// a cut must drop what a delayed link still holds, or an asynchronous primary's last commits reach
// the replica after all and `mysql-failover --async 1 --cut-link 1` shows no loss.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 100 && !cond(); i++) await sleep(50);
};

/** A server that keeps every byte it receives. */
async function collector(): Promise<{ server: Server; port: number; received: () => string }> {
  let text = '';
  const server = createServer((s) =>
    s.on('data', (d) => (text += d.toString())).on('error', () => undefined),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, port, received: () => text };
}

describe('a delayed relay', () => {
  let proxy: TcpProxy | undefined;
  let server: Server | undefined;
  let client: Socket | undefined;
  afterEach(async () => {
    client?.destroy();
    await proxy?.close();
    await new Promise((r) => server?.close(r) ?? r(undefined));
  });

  const through = async (delayMs: number) => {
    const sink = await collector();
    server = sink.server;
    proxy = await startTcpProxy({ host: '127.0.0.1', port: sink.port }, { delayMs });
    client = new Socket();
    client.on('error', () => undefined);
    await new Promise<void>((r) => client!.connect(proxy!.port, '127.0.0.1', r));
    return sink;
  };

  it('delivers what it holds after its delay', async () => {
    const sink = await through(150);
    client!.write('commit 1');
    await sleep(20);
    expect(sink.received()).toBe('');
    await until(() => sink.received() !== '');
    expect(sink.received()).toBe('commit 1');
  });

  it('drops what it holds when cut, and refuses to reconnect', async () => {
    const sink = await through(150);
    client!.write('commit 1');
    await sleep(20);
    proxy!.cut();
    await sleep(400);
    expect(sink.received()).toBe('');
    const again = new Socket();
    const refused = await new Promise<boolean>((r) => {
      again.on('error', () => r(true));
      again.on('close', () => r(true));
      again.connect(proxy!.port, '127.0.0.1', () => again.write('commit 2'));
    });
    expect(refused).toBe(true);
    await sleep(300);
    expect(sink.received()).toBe('');
  });
});
