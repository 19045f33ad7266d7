// netsh port range output (parsers/net/netsh-ports.ts). The exclusion text follows the output pasted in
// open-telemetry/opentelemetry-collector#10839; the dynamic range follows Microsoft Learn's
// troubleshoot-tcpip-port-exhaust page.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dynamicRoom, parseNetshPortRanges } from '../../../parsers/net/netsh-ports.ts';

const EXCLUDED = [
  '', 'Protocol tcp Port Exclusion Ranges', '', 'Start Port    End Port      ', '----------    --------      ',
  '        80          80      ', '     47001       47001      ', '     56638       56737      ', '     55679       55679     *', '',
  '* - Administered port exclusions.', '',
  'Protocol udp Port Exclusion Ranges', '', 'Start Port    End Port', '----------    --------', '     56030       56129', '',
].join('\r\n');
const DYNAMIC = ['', 'Protocol tcp Dynamic Port Range', '---------------------------------', 'Start Port      : 49152', 'Number of Ports : 16384', '',
  'Protocol udp Dynamic Port Range', '---------------------------------', 'Start Port      : 49152', 'Number of Ports : 16384', ''].join('\r\n');

describe('netsh port ranges', () => {
  it('reads exclusions per protocol with their lines and the administered mark', () => {
    const r = parseNetshPortRanges(EXCLUDED, 'excludedportrange.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.excluded.map((e) => `${e.proto} ${e.start}-${e.end}${e.administered ? '*' : ''}@${e.line}`)).toEqual(['tcp 80-80@6', 'tcp 47001-47001@7', 'tcp 56638-56737@8', 'tcp 55679-55679*@9', 'udp 56030-56129@17']);
  });
  it('reads dynamic ranges', () => {
    const r = parseNetshPortRanges(DYNAMIC, 'dynamicportrange.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.dynamic).toEqual([{ proto: 'tcp', start: 49152, count: 16384, line: 4 }, { proto: 'udp', start: 49152, count: 16384, line: 9 }]);
  });
  it('a broken line is an issue at its line; the rest still loads', () => {
    const r = parseNetshPortRanges(EXCLUDED.replace('     47001       47001      ', 'garbage 47001'), 'excludedportrange.txt');
    expect(r.issues.map((i) => i.line)).toEqual([7]);
    expect(r.value.excluded.length).toBe(4);
    expect(parseNetshPortRanges('Protocol tcp Port Exclusion Ranges\n 70000 70001\n 9 3', 'x').issues.length).toBe(2);
  });
  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (s) => { parseNetshPortRanges(`Protocol tcp Port Exclusion Ranges\n${s}\nProtocol tcp Dynamic Port Range\n${s}`, 'f'); }), { numRuns: 200 });
  });
});

describe('free 64-port blocks in the dynamic range', () => {
  it('arithmetic on a known case: 49152–65535 with 56638–56737 excluded', () => {
    const r = dynamicRoom({ proto: 'tcp', start: 49152, count: 16384, line: 1 }, [{ proto: 'tcp', start: 56638, end: 56737, administered: false, line: 1 }, { proto: 'tcp', start: 80, end: 80, administered: false, line: 1 }]);
    expect(r.excludedInside).toBe(100);
    expect(r.freePorts).toBe(16284);
    // gaps 49152–56637 (7486 ports → 116 blocks) and 56738–65535 (8798 → 137 blocks)
    expect(r.gaps).toEqual([{ start: 49152, end: 56637 }, { start: 56738, end: 65535 }]);
    expect(r.blocks).toBe(116 + 137);
  });
  it('properties: free + excluded = size, blocks ≤ free/64, overlapping exclusions counted once', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 40000, max: 65535 }), fc.integer({ min: 0, max: 2000 })), { maxLength: 30 }), (xs) => {
      const d = { proto: 'tcp', start: 49152, count: 16384, line: 1 };
      const ex = xs.map(([s, n]) => ({ proto: 'tcp', start: s, end: Math.min(65535, s + n), administered: false, line: 1 }));
      const r = dynamicRoom(d, ex);
      expect(r.freePorts + r.excludedInside).toBe(16384);
      expect(r.blocks).toBeLessThanOrEqual(Math.floor(r.freePorts / 64));
      let brute = 0;
      for (let p = 49152; p <= 65535; p++) if (!ex.some((e) => p >= e.start && p <= e.end)) brute++;
      expect(r.freePorts).toBe(brute);
    }), { numRuns: 60 });
  });
});
