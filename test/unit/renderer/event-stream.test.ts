// Browser mode's event stream read with fetch (renderer/src/api/event-stream.ts): EventSource cannot
// send the token header. The parser follows the event-stream format; the stream sends the header,
// tells subscribers of each (re)connection, and stops for good when the token is refused.
import { describe, expect, it } from 'vitest';
import { eventStream, splitEvents } from '../../../renderer/src/api/event-stream.ts';

describe('splitEvents', () => {
  it('returns complete messages and keeps the incomplete rest, dropping comments', () => {
    expect(splitEvents(': hnsight events\n\ndata: {"a":1}\n\ndata: {"b"')).toEqual({ data: ['{"a":1}'], rest: 'data: {"b"' });
    expect(splitEvents(': ping\n\n')).toEqual({ data: [], rest: '' });
    expect(splitEvents('data: x\r\ndata: y\r\n\r\n')).toEqual({ data: ['x\ny'], rest: '' });
    expect(splitEvents('data:nospace\n\n')).toEqual({ data: ['nospace'], rest: '' });
  });

  it('gives the same messages however the text is cut into chunks', () => {
    const text = ': hello\n\n' + Array.from({ length: 20 }, (_, i) => `data: {"n":${i}}\n\n: ping\n\n`).join('');
    const whole = splitEvents(text).data;
    for (const size of [1, 2, 3, 7, 13, 64]) {
      let buf = '';
      const got: string[] = [];
      for (let i = 0; i < text.length; i += size) {
        const r = splitEvents(buf + text.slice(i, i + size));
        buf = r.rest;
        got.push(...r.data);
      }
      expect(got, `chunks of ${size}`).toEqual(whole);
    }
    expect(whole).toHaveLength(20);
  });
});

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

describe('eventStream', () => {
  it('sends the token header, delivers events, tells each (re)connection, and stops when refused', async () => {
    const calls: Record<string, string>[] = [];
    const answers = [
      () => new Response(streamOf([': hnsight events\n\n', 'data: {"type":"load","job":{"jobId":"j1"}}\n\n']), { status: 200 }),
      () => new Response(streamOf(['data: {"type":"load","job":{"jobId":"j2"}}\n\n']), { status: 200 }),
      () => new Response('this page belongs to an hnsight server that is no longer running', { status: 401 }),
    ];
    const refusedWith: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const subscribe = eventStream({
      url: './events',
      headers: () => ({ 'X-Hnsight-Token': 't0k' }),
      fetch: async (_u, init) => {
        calls.push(init?.headers as Record<string, string>);
        const next = answers.shift();
        if (!next) throw new Error('called after the refusal');
        return next();
      },
      refused: async (res) => {
        refusedWith.push(await res.text());
        done();
        return true;
      },
      sleep: async () => undefined,
    });
    const seen: string[] = [];
    let connections = 0;
    subscribe((e) => seen.push((e as { job: { jobId: string } }).job.jobId), () => connections++);
    await finished;
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['j1', 'j2']);
    expect(connections).toBe(2);
    expect(calls).toHaveLength(3);
    expect(calls.every((h) => h['X-Hnsight-Token'] === 't0k')).toBe(true);
    expect(refusedWith).toEqual([expect.stringMatching(/no longer running/)]);
    expect(answers).toHaveLength(0);
  });
});
