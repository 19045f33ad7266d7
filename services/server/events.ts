// Server-Sent Events: the backend's job events as a `text/event-stream` (GET /events), one JSON
// event per message. A comment line every 15 s keeps idle connections from being dropped.
import type http from 'node:http';
import type { ApiEvent } from '../../contract/index.ts';

export function streamEvents(res: http.ServerResponse, subscribe: (l: (e: ApiEvent) => void) => () => void, headers: Record<string, string>): void {
  res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  res.write(': hnsight events\n\n');
  const off = subscribe((e) => {
    res.write(`data: ${JSON.stringify(e)}\n\n`);
  });
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  const stop = () => {
    clearInterval(ping);
    off();
  };
  res.on('close', stop);
  res.on('error', stop);
}
