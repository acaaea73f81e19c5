import { createServer, type Server, type Socket } from 'node:net';

// Targets that misbehave on purpose, for `hostile-targets`: a raw TCP server on loopback (node:http
// would not let a response go this wrong). The kind is the last path segment of the URL
// (`/s/<tenant>/<kind>`); each connection is recorded: when it opened and closed, bytes written.
// Every behaviour is bounded (MAX_MS, MAX_BYTES): the server ends a connection itself past those,
// so a client that never gives up shows as a connection that lasted MAX_MS, not a run that hangs.
//
//   loris     the status line and headers, one byte a second
//   headers   a status line, then header lines as fast as the client reads, never the blank line
//   body      a 200 with a chunked body as fast as the client reads, never the last chunk
//   redirect  302 to itself (a client that follows loops)
//   ok        200 "ok", connection closed (the rebinding name's target: every call a new connection)

export const HOSTILE_KINDS = ['loris', 'headers', 'body', 'redirect', 'ok'] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

const MAX_MS = 120_000;
const MAX_BYTES = 256 * 1024 * 1024;

export interface HostileConnection {
  kind: HostileKind | 'unknown';
  key: string;
  attempt: number;
  openedAt: number;
  closedAt: number | undefined;
  bytesOut: number;
  /** Ended by the server's own bound, not by the client. */
  boundHit: boolean;
}

export class HostileServer {
  readonly connections: HostileConnection[] = [];
  #server: Server;
  #sockets = new Set<Socket>();
  port = 0;

  private constructor() {
    this.#server = createServer((socket) => this.#accept(socket));
  }

  static async start(): Promise<HostileServer> {
    const s = new HostileServer();
    await new Promise<void>((resolve) => s.#server.listen(0, '127.0.0.1', resolve));
    const address = s.#server.address();
    s.port = typeof address === 'object' && address ? address.port : 0;
    return s;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    const conn: HostileConnection = {
      kind: 'unknown',
      key: '',
      attempt: 0,
      openedAt: Date.now(),
      closedAt: undefined,
      bytesOut: 0,
      boundHit: false,
    };
    this.connections.push(conn);
    const timers: NodeJS.Timeout[] = [];
    const bound = setTimeout(() => {
      conn.boundHit = true;
      socket.destroy();
    }, MAX_MS);
    timers.push(bound);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      conn.closedAt = Date.now();
      for (const t of timers) clearTimeout(t); // intervals too
      this.#sockets.delete(socket);
    });
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 64 * 1024) socket.destroy();
        return;
      }
      socket.off('data', onData);
      socket.resume(); // the request body, if any, is read and dropped
      const [requestLine = '', ...lines] = head.slice(0, end).split('\r\n');
      const path = requestLine.split(' ')[1] ?? '';
      const kind = (path.split('/').pop() ?? '') as HostileKind;
      conn.kind = HOSTILE_KINDS.includes(kind) ? kind : 'unknown';
      for (const l of lines) {
        const at = l.indexOf(':');
        const name = l.slice(0, at).trim().toLowerCase();
        const value = l.slice(at + 1).trim();
        if (name === 'idempotency-key') conn.key = value;
        if (name === 'dsched-attempt') conn.attempt = Number(value);
      }
      this.#respond(conn, socket, path, timers);
    };
    socket.on('data', onData);
  }

  #respond(conn: HostileConnection, socket: Socket, path: string, timers: NodeJS.Timeout[]): void {
    const write = (s: string | Buffer) => {
      if (socket.destroyed) return false;
      conn.bytesOut += s.length;
      if (conn.bytesOut > MAX_BYTES) {
        conn.boundHit = true;
        socket.destroy();
        return false;
      }
      return socket.write(s);
    };
    // Writes `next()` as fast as the client reads (backpressure), until the socket ends.
    const flood = (next: () => string | Buffer) => {
      const pump = () => {
        while (!socket.destroyed && write(next())) {
          /* until the socket's buffer is full */
        }
      };
      socket.on('drain', pump);
      pump();
    };
    switch (conn.kind) {
      case 'loris': {
        const text = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok';
        let i = 0;
        timers[1] = setInterval(() => {
          if (i < text.length) write(text[i++] ?? '');
        }, 1000);
        return;
      }
      case 'headers': {
        write('HTTP/1.1 200 OK\r\n');
        let n = 0;
        flood(() => `x-hostile-${n++}: ${'a'.repeat(100)}\r\n`);
        return;
      }
      case 'body': {
        write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n',
        );
        const chunk = Buffer.concat([
          Buffer.from('4000\r\n'),
          Buffer.alloc(0x4000, 'x'),
          Buffer.from('\r\n'),
        ]);
        flood(() => chunk);
        return;
      }
      case 'redirect':
        write(`HTTP/1.1 302 Found\r\nlocation: ${path}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
        socket.end();
        return;
      case 'ok':
        write(
          'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
        );
        socket.end();
        return;
      default:
        write('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
        socket.end();
    }
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
