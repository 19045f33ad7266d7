// How long and how many sockets browser mode holds. Without limits, idle sockets (even ones that never
// authenticated) were held forever and a body trickled in a byte at a time for minutes (issue #28):
// 300 of them exhaust a 256-descriptor limit and the user's own tab cannot connect. One user's browser
// opens a handful of connections (Chromium: six per host, plus the event stream per tab), so the cap
// leaves ample room. The event stream is exempt from the idle timeout (server.ts) and sends a
// heartbeat (events.ts).
import type http from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections open at once; more are closed on arrival (server.maxConnections). */
  maxConnections: number;
  /** Time to receive a request's headers (server.headersTimeout). */
  headersMs: number;
  /** Time to receive a whole request, body included (server.requestTimeout): the ceiling for the largest upload. */
  requestMs: number;
  /** A socket with no traffic for this long is closed (server.timeout). */
  idleMs: number;
  /** How long a keep-alive connection waits for its next request (server.keepAliveTimeout). */
  keepAliveMs: number;
  /** Requests one keep-alive connection may carry (server.maxRequestsPerSocket). */
  maxRequestsPerSocket: number;
  /** A request body (an upload, an API call) that receives fewer than `bodyMinBytes` in any window of this length is dropped. */
  bodyStallMs: number;
  bodyMinBytes: number;
  /** The event stream's heartbeat (a comment line). */
  heartbeatMs: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  maxConnections: 128,
  headersMs: 10_000,
  // The ceiling for the largest upload (2 GiB at 2 MiB/s); a trickle is dropped long before by the stall rule.
  requestMs: 20 * 60_000,
  idleMs: 30_000,
  keepAliveMs: 5_000,
  maxRequestsPerSocket: 1000,
  bodyStallMs: 10_000,
  bodyMinBytes: 64 * 1024,
  heartbeatMs: 15_000,
};

export function connectionLimits(over: Partial<ConnectionLimits> = {}): ConnectionLimits {
  return { ...DEFAULT_LIMITS, ...over };
}

/** How often Node checks the header and request timers (its default, 30 s, would triple a 10 s header timeout). */
export function checkInterval(l: ConnectionLimits): number {
  return Math.max(100, Math.min(Math.floor(l.headersMs / 4), 5_000));
}

export function applyConnectionLimits(server: http.Server, l: ConnectionLimits): void {
  server.maxConnections = l.maxConnections;
  server.headersTimeout = l.headersMs;
  server.requestTimeout = l.requestMs;
  server.keepAliveTimeout = l.keepAliveMs;
  server.maxRequestsPerSocket = l.maxRequestsPerSocket;
  server.setTimeout(l.idleMs, (socket) => socket.destroy());
  // Node's header timer starts with a request's first byte: a socket that connects and sends nothing
  // escapes it (and its idle timer is refreshed by Node's periodic connection check), so one that
  // has sent nothing within the header time is closed here.
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), l.headersMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    socket.once('data', clear);
    socket.once('close', clear);
  });
}

/**
 * Drops a request whose body stalls: fewer than `bodyMinBytes` arrived on its socket in a window of
 * `bodyStallMs` while the body is not complete. Counted from the socket (bytesRead), so the body's
 * reader is left alone. Stops by itself when the request ends or its socket closes.
 */
export function watchBodyProgress(req: http.IncomingMessage, l: ConnectionLimits): void {
  if (req.complete) return;
  const socket = req.socket;
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    const now = socket.bytesRead;
    if (req.complete) return stop();
    if (now - last < l.bodyMinBytes) {
      stop();
      socket.destroy();
      return;
    }
    last = now;
  }, l.bodyStallMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  req.once('end', stop);
  req.once('close', stop);
}
