// Server-Sent Events read with fetch: EventSource cannot send a header, and browser mode's token
// travels only in one (tab-token.ts). One stream for the page, shared by every subscriber; when it
// drops it is opened again (1 s, doubling to 15 s), and every (re)connection is told to the
// subscribers so they fetch what they may have missed. A refusal of the token ends it for good
// (the app says so once, through `refused`).
import type { ApiEvent, HnsightApi } from '../../../contract/index.ts';

/**
 * Splits a buffer of event-stream text into the `data` of its complete messages and the rest (an
 * incomplete message). Comment lines (the server's heartbeat) are dropped; multi-line data is joined
 * with newlines, as the event-stream format says.
 */
export function splitEvents(buf: string): { data: string[]; rest: string } {
  const data: string[] = [];
  const text = buf.replace(/\r\n?/g, '\n');
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n\n', start);
    if (end < 0) break;
    const lines = text.slice(start, end).split('\n');
    const parts = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
    if (parts.length) data.push(parts.join('\n'));
    start = end + 2;
  }
  return { data, rest: text.slice(start) };
}

export interface StreamOptions {
  url: string;
  headers: () => Record<string, string>;
  /** Reads a refusal (401/403): reports it and resolves true when the stream must not be opened again. */
  refused: (res: globalThis.Response) => Promise<boolean>;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
}

export function eventStream(o: StreamOptions): HnsightApi['subscribe'] {
  const listeners = new Set<(e: ApiEvent) => void>();
  const connected = new Set<() => void>();
  const doFetch = o.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let started = false;
  let open = false;

  async function run(): Promise<void> {
    let delay = 1000;
    for (;;) {
      try {
        const res = await doFetch(o.url, { headers: o.headers(), cache: 'no-store', credentials: 'omit' });
        if (res.status === 401 || res.status === 403) {
          if (await o.refused(res)) return;
        } else if (res.ok && res.body) {
          open = true;
          delay = 1000;
          for (const c of [...connected]) c();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buf = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const { data, rest } = splitEvents(buf + value);
            buf = rest;
            for (const d of data) deliver(d);
          }
        }
      } catch {
        // The server went away or the network dropped: open it again below.
      }
      open = false;
      await sleep(delay);
      delay = Math.min(delay * 2, 15_000);
    }
  }

  function deliver(d: string): void {
    let e: ApiEvent;
    try {
      e = JSON.parse(d) as ApiEvent;
    } catch {
      return;
    }
    for (const l of [...listeners]) l(e);
  }

  return (listener, onConnected) => {
    listeners.add(listener);
    if (onConnected) connected.add(onConnected);
    if (!started) {
      started = true;
      void run();
    } else if (open && onConnected) queueMicrotask(onConnected);
    return () => {
      listeners.delete(listener);
      if (onConnected) connected.delete(onConnected);
    };
  };
}
