import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Brings the local stack up when the tests find it down (scripts/stack up is idempotent). */
export default async function setup(): Promise<void> {
  if (process.env.DSCHED_TEST_MYSQL_URL || process.env.DSCHED_TEST_CASSANDRA) return;
  if ((await portOpen(3306)) && (await portOpen(9042))) return;
  execFileSync('bash', [fileURLToPath(new URL('./stack', import.meta.url)), 'up'], { stdio: 'inherit' });
}
