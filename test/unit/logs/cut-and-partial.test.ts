// parsers/logs/parse.ts: CRI partial records joined with the lines that end them, and a paste cut
// inside its last line said so.
import { describe, expect, it } from 'vitest';
import { parseLogFile } from '../../../parsers/logs/parse.ts';

const cri = (t: string, stream: string, tag: 'P' | 'F', payload: string) => `2024-02-01T10:15:0${t}Z ${stream} ${tag} ${payload}`;

describe('CRI partial records (P) are joined with what continues them', () => {
  it('P, P, F on one stream: one record on the first line, its message and fields read from the joined payload', () => {
    const text = [
      cri('1.1', 'stderr', 'F', 'I0201 10:15:01.000000    4012 a.go:1] "start"'),
      cri('2.1', 'stderr', 'P', 'E0201 10:15:02.000000    4012 proxier.go:1180] "Policy creation fail'),
      cri('2.2', 'stderr', 'P', 'ed" err="hcnCreateLoadBalancer failed in Win32 (0x803b'),
      cri('2.3', 'stderr', 'F', '000d)"'),
      cri('3.1', 'stderr', 'F', 'I0201 10:15:03.000000    4012 a.go:2] "next"'),
    ].join('\n');
    const r = parseLogFile(text, 'kube-proxy.log');
    const ev = r.value.events;
    expect(ev.map((e) => [e.line, e.endLine ?? null, e.level])).toEqual([[1, null, 'info'], [2, 4, 'error'], [5, null, 'info']]);
    expect(ev[1].message).toBe('Policy creation failed');
    expect(ev[1].fields).toMatchObject({ err: 'hcnCreateLoadBalancer failed in Win32 (0x803b000d)', joined: '3' });
    expect(ev[1].fields!.partial).toBeUndefined();
    expect(ev[1].hnsErrors!.map((h) => h.code)).toEqual(['0x803b000d']);
  });

  it('a P record the file ends in stays partial; another stream is not joined to it', () => {
    const text = [cri('1.1', 'stderr', 'P', 'I0201 10:15:01.000000    1 a.go:1] "half'), cri('1.2', 'stdout', 'F', 'other stream')].join('\n');
    const ev = parseLogFile(text, 'x.log').value.events;
    expect(ev).toHaveLength(2);
    expect(ev[0].fields).toMatchObject({ partial: 'true' });
  });
});

describe('a paste cut inside its last line', () => {
  it('the first letters of a log line at the end are said, not taken into the record before', () => {
    const text = 'time="2020-09-20T18:47:55.7Z" level=info msg="a"\ntime="2020-09-20T18:47:56.7Z" level=info msg="b"\nti\n';
    const r = parseLogFile(text, 'containerd.log');
    expect(r.value.events.map((e) => [e.line, e.endLine ?? null])).toEqual([[1, null], [2, null]]);
    expect(r.issues).toEqual([expect.objectContaining({ line: 3, severity: 'info', message: 'the text ends inside this line: "ti" is the start of a log line cut off (the paste or the file was cut here)' })]);
  });
  it('a wrapped continuation at the end is still part of its record', () => {
    const r = parseLogFile('time="2020-09-20T18:47:55.7Z" level=info msg="a"\n  more of it\n', 'containerd.log');
    expect(r.value.events[0].endLine).toBe(2);
    expect(r.issues).toEqual([]);
  });
});
