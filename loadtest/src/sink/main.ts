import { createSinkServer, Sink } from './server.ts';

// The sink as a process of its own, so its CPU is its own (measured) and the runner's work never
// slows its answers. Prints {"port": N} on stdout once it listens; the runner drives it over
// /_sink/* on the same port.

const port = Number(process.argv[2] ?? 0);
const sink = new Sink();
const server = createSinkServer(sink);
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`,
  );
});
const stop = () => {
  sink.close();
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Dies with the runner even if the runner was killed -9 (stdin is a pipe from it).
process.stdin.on('end', stop);
process.stdin.resume();
