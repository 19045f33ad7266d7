// Mutations of a line-oriented text, for properties that a fast reader equals the general one on
// inputs nobody wrote: every line or every k-th line prefixed (quote marks, TABs, indentation, code
// fences), lines inserted (prose, prompts, section titles, block starts, JSON punctuation, other
// languages' titles), removed, duplicated, padded with blanks, cut, or given junk characters.
import fc from 'fast-check';
import { bundleFiles, buildNode, DEFAULT_SPEC, type NodeSpec } from '../../tools/gen/index.ts';

const PREFIXES = ['> ', '>', '> > ', '>>', '\t', '    ', '  ', ' ', '```', '~~~ ', '\u00a0'];
const LINES = [
  '', '   ', '\t', '\u00a0', '```', '~~~', '`', 'Here is what HNS has for the pods on this node:', 'The output of hnsdiag follows below here',
  'PS C:\\k> hnsdiag list all -d', 'PS C:\\> ipconfig /allcompartments /all', 'hnsdiag list endpoints', 'hnsdiag <command> <object>',
  'Networks:', 'Load Balancers :', '////////ADAPTERS////////', 'Endpoint         : 1234abcd-0000-4000-8000-000000000001',
  'Network : 7ad74d16-88f1-49c3-85cf-69cbd5d7c63d', '    Name             : nat', '    Virtual IPs      : 10.96.0.10',
  '    Direct IP IDs    : f6f779ae-9fb9-475d-8ad3-ee3f3f5a11ff {4b4ef271-16a4-4c5f-a8c2-590d709b50ab}', 'adapter: {abc}',
  'Name     ID                                   Type', '----     --                                   ----', 'nat      71827983-5bbf-40d1-9d17-ba0e8285b294 NAT',
  'Network Information for Compartment 7 (ACTIVE)', '隔离舱 2 的网络信息', 'コンパートメント 3 のネットワーク情報（アクティブ）',
  '==============================================================================', '   12 vEthernet (abc1234...  IPv4   1500   25 Disabled Connected ActiveStore',
  '                                       10.244.1.5', '   Description . . . . . . . . . . . : Hyper-V Virtual Ethernet Adapter #2',
  '{', '}', '[', ']', '  "ID": "X",', '{"ID":"A7D04338-469E-47E8-967D-6818E82CACA7","FrontendVIPs":["10.96.0.1"]}', 'İK Kelvin İ', '\uFEFF',
];

/** One mutation: the text it is applied to in, the mutated text out. */
export const lineMutation: fc.Arbitrary<(t: string) => string> = fc.oneof(
  fc.tuple(fc.constantFrom(...PREFIXES), fc.integer({ min: 1, max: 3 })).map(([p, every]) => (t: string) => t.split('\n').map((l, i) => (i % every === 0 ? p + l : l)).join('\n')),
  fc.tuple(fc.nat(), fc.constantFrom(...LINES)).map(([n, line]) => (t: string) => {
    const ls = t.split('\n');
    ls.splice(n % (ls.length + 1), 0, line);
    return ls.join('\n');
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 5 })).map(([n, k]) => (t: string) => {
    const ls = t.split('\n');
    ls.splice(n % (ls.length + 1), k);
    return ls.join('\n');
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8 })).map(([n, k]) => (t: string) => {
    const ls = t.split('\n');
    const at = n % (ls.length + 1);
    ls.splice(at, 0, ...ls.slice(at, at + k));
    return ls.join('\n');
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })).map(([n, k]) => (t: string) => {
    const ls = t.split('\n');
    const at = n % Math.max(1, ls.length);
    ls[at] = (ls[at] ?? '') + ' '.repeat(k);
    return ls.join('\n');
  }),
  fc.nat().map((n) => (t: string) => t.slice(0, n % (t.length + 1))),
  fc.tuple(fc.nat(), fc.string({ unit: 'grapheme', maxLength: 6 })).map(([n, junk]) => (t: string) => {
    const at = n % (t.length + 1);
    return t.slice(0, at) + junk + t.slice(at);
  }),
  fc.constant((t: string) => t.replace(/\n/g, '\r\n')),
);

/** A text with 0–4 mutations applied. */
export function mutated(texts: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.nat(texts.length - 1), fc.array(lineMutation, { maxLength: 4 })).map(([i, ms]) => ms.reduce((t, m) => m(t), texts[i]!));
}

/** A generated node's file, as text (small: 4 pods, 6 Services unless the spec says). */
export function generatedText(file: string, spec: Partial<NodeSpec> = {}): string {
  const node = buildNode({ ...DEFAULT_SPEC, pods: 4, services: 6, ...spec });
  const f = bundleFiles(node).find((x) => x.path === file);
  if (!f) throw new Error(`the generator writes no ${file}`);
  return [...f.content()].join('');
}
