// The hostile bundles of issue 15's audit, rebuilt from the demo node (assets/demo/l2bridge-node, the
// real formats and encodings): each is the demo with one file crafted. The regression tests and the
// fuzz harness share them.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEMO = path.join(repo, 'assets/demo/l2bridge-node');

/** A copy of the demo node in `dir` (created). */
export function demoCopy(dir: string): string {
  cpSync(DEMO, dir, { recursive: true });
  return dir;
}

function readUtf16(file: string): string {
  const b = readFileSync(file);
  if (b[0] !== 0xff || b[1] !== 0xfe) throw new Error(`${file} is not UTF-16LE with a BOM`);
  return b.subarray(2).toString('utf16le');
}

function writeUtf16(file: string, text: string): void {
  writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
}

/**
 * vfpOutput.txt with `rules` crafted LB rules at the head of every port's LB_DSR_IPv4_OUT group, each
 * listing `ips` destination addresses, `ports` destination ports and two protocols: spelled out, one
 * rule is ips × ports × 2 keys (3,000 × 3,000 × 2 = 18 million). 7 such rules are the audit's 349 KiB.
 */
export function withLbRuleBlowup(dir: string, o: { rules?: number; ips?: number; ports?: number } = {}): void {
  const file = path.join(dir, 'vfpOutput.txt');
  const text = readFileSync(file, 'latin1');
  const ips = Array.from({ length: o.ips ?? 3000 }, (_, i) => `10.1.${(i >> 8) & 255}.${i & 255}`).join(', ');
  const ports = Array.from({ length: o.ports ?? 3000 }, (_, i) => String(i + 1)).join(', ');
  const rule = (i: number) =>
    [
      `    RULE : LB_DSR_CRAFTED_${i}`,
      `        Friendly name : LB_DSR_CRAFTED_${i}`,
      '        Priority : 100',
      '        Flags : 1 terminating ',
      '        Type : lbnat',
      '        Conditions:',
      '            Protocols : 6, 17',
      `            Destination IP : ${ips}`,
      `            Destination ports : ${ports}`,
      '        Flow TTL: 240',
      '        Rule Data:',
      '            Modifying destination IP',
      '            Count of DIP Ranges: 1',
      '            DIP Range(s) :',
      '                { 10.244.33.3 : 53 }',
      '',
    ].join('\r\n');
  const crafted = Array.from({ length: o.rules ?? 7 }, (_, i) => rule(i)).join('\r\n');
  let n = 0;
  // The first rule after each LB_DSR_IPv4_OUT group header gets the crafted ones in front of it.
  const out = text.replace(/(GROUP : LB_DSR_IPv4_OUT[\s\S]*?)(\r\n {4}RULE : )/g, (_m, head: string, ruleStart: string) => {
    n++;
    return `${head}\r\n${crafted}${ruleStart}`;
  });
  if (!n) throw new Error('no LB_DSR_IPv4_OUT group in the demo vfpOutput.txt');
  writeFileSync(file, out, 'latin1');
}

/**
 * policy.txt whose first load balancer names an endpoint that does not exist, with an ID that is a
 * catastrophic regular expression (`(a+)+$`), and whose own ID is a run of `run` letters `a` and a `!`:
 * used as a pattern against that line, matching takes 2^run steps.
 */
export function withRegexId(dir: string, run = 40): { endpointId: string; lbId: string } {
  const file = path.join(dir, 'policy.txt');
  const text = readUtf16(file);
  const endpointId = '(a+)+$';
  const lbId = 'a'.repeat(run) + '!';
  const out = text.replace('"758B2D8A-7B69-4E64-838B-F924D807B94A"', JSON.stringify(lbId)).replace('"3D1CD9BB-A4FB-4A74-A25E-02703E468A95"', JSON.stringify(endpointId));
  if (out === text) throw new Error('the demo policy.txt changed: update withRegexId');
  writeUtf16(file, out);
  return { endpointId, lbId };
}

/**
 * ip.txt whose Get-NetIPAddress list repeats one key `n` times in one record (15,000 × 32 bytes is the
 * audit's 480 KB). A parser that looks for a free suffix from 2 each time is quadratic in n.
 */
export function withDuplicateKeys(dir: string, n = 15_000): void {
  const file = path.join(dir, 'ip.txt');
  const text = readUtf16(file);
  const anchor = /\r\nIPAddress {9}: fe80::[^\r\n]*\r\n/.exec(text);
  if (!anchor) throw new Error('the demo ip.txt has no Get-NetIPAddress list');
  const at = anchor.index + anchor[0].length;
  writeUtf16(file, text.slice(0, at) + 'PolicyStore       : ActiveStore\r\n'.repeat(n) + text.slice(at));
}

/** ip.txt with the host name replaced by `name` (the audit's crasher: a 1,035,968-character one). */
export function withHostName(dir: string, name: string): void {
  const file = path.join(dir, 'ip.txt');
  const text = readUtf16(file);
  const out = text.replaceAll('win-fl-l2b-01', name);
  if (out === text) throw new Error('the demo ip.txt changed: update withHostName');
  writeUtf16(file, out);
}

/**
 * Identifiers of every kind redaction must hide (issue #28, point 4), planted in mutated bundles by
 * the fuzz harness (mutate.ts `plantIds`): a redacted report that still shows one, where its text
 * stands apart from its neighbours, is a finding (exercise.ts).
 */
export const PLANTED_IDS = [
  'fd12:3456:789a:1::42',
  'fe80::215:5dff:fe51:7f5e',
  '2001:db8:85a3::8a2e:370:7334',
  'ops.fuzz@contoso-fuzz.com',
  'web01.contoso-fuzz.internal',
  '{1BC5A3F2-1111-4222-8333-444455556666}',
  'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  '00:15:5d:51:7f:5e',
  '10.77.66.55',
];

/** The planted identifiers a text still shows standing apart (not glued into a longer word or number). */
export function plantedLeaks(text: string): string[] {
  const low = text.toLowerCase();
  return PLANTED_IDS.filter((id) => {
    const k = id.toLowerCase().replace(/[{}]/g, '');
    for (let i = low.indexOf(k); i >= 0; i = low.indexOf(k, i + 1)) {
      const before = low[i - 1] ?? ' ';
      const after = low.slice(i + k.length, i + k.length + 2);
      if (!/[0-9a-z.@:_-]/.test(before) && !/^[0-9a-z:@-]/.test(after) && !/^\.[0-9a-z]/.test(after)) return true;
    }
    return false;
  });
}
