// What recognition says about a file in product words: the command that writes it, with the right
// article — never an internal kind ("named like a endpoint file", "read as hnsportpoolallocs file").
import { describe, expect, it } from 'vitest';
import { recognise } from '../../../parsers/bundle/recognise.ts';
import { KIND_NAMES, kindWithArticle, type FileKind } from '../../../parsers/bundle/file-kind.ts';

describe('a file named like one kind', () => {
  const cases: [string, RegExp][] = [
    ['endpoint.txt', /named like a Get-HnsEndpoint file/],
    ['ip.txt', /named like an ipconfig file/],
    ['hnsportpoolallocs.txt', /named like an HNS port pool allocation file/],
  ];
  for (const [name, re] of cases)
    it(name, () => {
      const r = recognise(name, 'hello\nworld\n');
      expect(r.reason).toMatch(re);
      expect(`${r.reason} ${r.format}`).not.toMatch(/\b(a|an) (endpoint|ip|hnsportpoolallocs|namespaces|routes|vfp) file/);
    });
  it('every kind has words and an article', () => {
    for (const k of Object.keys(KIND_NAMES) as FileKind[]) expect(kindWithArticle(k)).toMatch(/^(a|an) \S/);
  });
});
