// Loaded into an executor process of `pnpm loadtest hostile-targets` (NODE_OPTIONS=--import=...),
// never into a service otherwise. Two things, both in this process only:
//
// 1. DNS rebinding through the resolver the SSRF guard uses (guarded-connector.ts resolves with
//    `lookup` of node:dns/promises): the name in LT_REBIND_HOST resolves to 127.0.0.1 the first
//    time this process asks and to LT_REBIND_TO (a private address the guard must refuse) every
//    time after. Other names resolve as usual.
// 2. A safety net under the guard: a socket to any address that is not loopback is refused here
//    and logged, so that even a broken guard never opens a connection off this machine. The
//    scenario counts those lines; it must find none.
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const host = process.env.LT_REBIND_HOST ?? '';
const to = process.env.LT_REBIND_TO ?? '10.255.255.1';
const logFile = process.env.LT_REBIND_LOG ?? '';
const log = (line) => {
  if (logFile) appendFileSync(logFile, `${process.pid} ${line}\n`);
};

let asked = 0;
const systemLookup = dns.promises.lookup;
dns.promises.lookup = async function lookup(hostname, options) {
  if (hostname !== host) return systemLookup.call(this, hostname, options);
  const address = asked++ === 0 ? '127.0.0.1' : to;
  log(`resolve ${hostname} ${address}`);
  const answer = { address, family: 4 };
  return options && typeof options === 'object' && options.all ? [answer] : answer;
};

const isLoopback = (address) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
const targetOf = (args) => {
  const [first, second] = args;
  if (first && typeof first === 'object' && !Array.isArray(first))
    return first.path ? undefined : (first.host ?? 'localhost');
  if (typeof first === 'number') return typeof second === 'string' ? second : 'localhost';
  return undefined;
};
const systemConnect = net.connect;
function loopbackOnlyConnect(...args) {
  const target = targetOf(args);
  if (target !== undefined && net.isIP(target) && !isLoopback(target)) {
    log(`blocked connect ${target}`);
    throw new Error(`loadtest safety net: no socket to ${target} (not loopback)`);
  }
  return systemConnect.apply(this, args);
}
net.connect = loopbackOnlyConnect;
net.createConnection = loopbackOnlyConnect;
syncBuiltinESMExports();
log('preload ready');
