import { createInterface } from 'node:readline';
import { startTcpProxy } from '@dsched/testkit/tcp-proxy';

// A TCP relay (testkit's startTcpProxy) in a process of its own, so the traffic of a whole fleet
// through it never waits on the harness's event loop. argv: target port, delay ms. Prints
// {"port": N} once listening; then one command a line on stdin (`cut`, `restore`, `retarget PORT`),
// each answered `ok` on stdout. Exits when stdin closes.
const [targetPort, delay] = process.argv.slice(2).map(Number);
const proxy = await startTcpProxy({ host: '127.0.0.1', port: targetPort! }, { delayMs: delay ?? 0 });
process.stdout.write(`${JSON.stringify({ port: proxy.port })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd === 'cut') proxy.cut();
  else if (cmd === 'restore') proxy.restore();
  else if (cmd === 'retarget') proxy.retarget({ host: '127.0.0.1', port: Number(arg) });
  else {
    process.stdout.write(`error unknown command ${line}\n`);
    return;
  }
  process.stdout.write('ok\n');
});
lines.on('close', () => {
  void proxy.close().then(() => process.exit(0));
});
