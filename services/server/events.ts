// Server-Sent Events: the backend's job events as a `text/event-stream` (GET /events), one JSON
// event per message. A comment line every `heartbeatMs` (15 s) keeps the stream from looking idle to
// anything between the page and us, and tells a dead page's socket apart (the write fails).
import type http from 'node:http';
import type { ApiEvent } from '../../contract/index.ts';

export function streamEvents(res: http.ServerResponse, subscribe: (l: (e: ApiEvent) => void) => () => void, headers: Record<string, string>, heartbeatMs = 15_000): void {
  res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  res.write(': hnsight events\n\n');
  const off = subscribe((e) => {
    res.write(`data: ${JSON.stringify(e)}\n\n`);
  });
  const ping = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
  const stop = () => {
    clearInterval(ping);
    off();
  };
  res.on('close', stop);
  res.on('error', stop);
}
