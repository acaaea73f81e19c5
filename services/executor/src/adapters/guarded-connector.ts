import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';
import { type AllowList, refusalReason } from './target-policy.ts';

// The SSRF guard at connect time: undici hands every new connection to this connector, which
// resolves the name itself, checks every address it got, and connects to an allowed address by
// IP. The check is on the address actually dialled, so DNS rebinding (a name that resolves to a
// public address when checked and a private one when connected) has nothing to exploit, and an
// IP literal in the URL is checked like any other address. Kept-alive connections were checked
// when they were opened.

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name → addresses; injected in tests, `dns.lookup` (all addresses) otherwise. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SocketTarget {
  address: string;
  port: number;
  /** Set for https: the name the certificate must match (SNI). */
  tls?: { servername: string | undefined };
}

/** Opens a connected socket to an address already checked; injected in tests. */
export type SocketOpener = (target: SocketTarget, timeoutMs: number) => Promise<Socket>;

export class TargetRefusedError extends Error {
  readonly code = 'DSCHED_TARGET_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export const openSocket: SocketOpener = (target, timeoutMs) =>
  new Promise((resolve, reject) => {
    const socket: Socket = target.tls
      ? tlsConnect({
          host: target.address,
          port: target.port,
          servername: target.tls.servername,
          ALPNProtocols: ['http/1.1'],
        })
      : netConnect({ host: target.address, port: target.port });
    const timer = setTimeout(
      () => socket.destroy(new Error(`connect timeout after ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 60_000);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });

export function guardedConnector(options: {
  allow: AllowList;
  resolve?: Resolver;
  open?: SocketOpener;
  connectTimeoutMs: number;
}): buildConnector.connector {
  const resolve = options.resolve ?? systemResolver;
  const open = options.open ?? openSocket;
  return (opts, callback) => {
    const hostname = opts.hostname.replace(/^\[(.*)\]$/, '$1');
    const https = opts.protocol === 'https:';
    const port = Number(opts.port) || (https ? 443 : 80);
    (async () => {
      const candidates = isIP(hostname)
        ? [{ address: hostname, family: isIP(hostname) }]
        : await resolve(hostname);
      const allowed: ResolvedAddress[] = [];
      let refusal: string | undefined;
      for (const c of candidates) {
        const reason = refusalReason(hostname, c.address, options.allow);
        if (reason === null) allowed.push(c);
        else refusal ??= `${hostname} resolves to ${c.address}, ${reason}`;
      }
      if (allowed.length === 0) throw new TargetRefusedError(refusal ?? `${hostname} resolves to no address`);
      let lastError: unknown;
      for (const c of allowed) {
        try {
          return await open(
            {
              address: c.address,
              port,
              ...(https
                ? { tls: { servername: isIP(hostname) ? undefined : (opts.servername ?? hostname) } }
                : {}),
            },
            options.connectTimeoutMs,
          );
        } catch (err) {
          lastError = err;
        }
      }
      throw lastError;
    })().then(
      (socket) => callback(null, socket),
      (err: Error) => callback(err, null),
    );
  };
}
