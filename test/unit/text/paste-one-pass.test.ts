// cleanPaste reads a file's lines fewer times (parsers/text/paste.ts: blank lines told at their first
// character, the code-block check stopping at the first line that is not prose, the quote check at
// the first line that is not quoted): on every sample and on mutated ones it gives what the reader
// it replaced gives (reference/paste-reference.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanPaste } from '../../../parsers/text/paste.ts';
import { cleanPasteReference } from './reference/paste-reference.ts';
import { mutated } from '../../helpers/line-mutations.ts';
import { sampleTexts } from '../../helpers/sample-texts.ts';

const samples = sampleTexts(['hns', 'hnsdiag', 'ipconfig', 'routes', 'vfp', 'k8s', 'logs'], ['hns', 'hnsdiag', 'ipconfig', 'route', 'vfp', 'get-'], 'hnsdiag.txt');

describe('cleanPaste in fewer passes', () => {
  it('gives what the reader it replaced gives on every sample', () => {
    expect(samples.length).toBeGreaterThan(40);
    for (const t of samples) expect(cleanPaste(t)).toEqual(cleanPasteReference(t));
  });

  it('gives what the reader it replaced gives on mutated samples', () => {
    fc.assert(fc.property(mutated(samples), (t) => {
      expect(cleanPaste(t)).toEqual(cleanPasteReference(t));
    }), { numRuns: 600 });
  });

  it('gives what the reader it replaced gives on texts of quote marks, TABs, fences, prose and blanks', () => {
    const line = fc.stringMatching(/^( {0,6}|\t|\u00a0)?(> ?|>>|```)?( {0,5})[A-Za-z :{}"`>~\t-]{0,12}([ \t]{0,25})$/);
    fc.assert(fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (ls, eol) => {
      const t = ls.join(eol);
      expect(cleanPaste(t)).toEqual(cleanPasteReference(t));
    }), { numRuns: 1500 });
  });

  it('trims the blank a backtick leaves at the end of the last line, as before', () => {
    for (const t of ['```\nName : nat\nType : NAT `', '> a b\n> c d `', 'a\tb\n\tc `\t']) expect(cleanPaste(t)).toEqual(cleanPasteReference(t));
    expect(cleanPaste('```\nName : nat\nType : NAT `').text).toBe('\nName : nat\nType : NAT');
  });

  it('still removes a code-block indentation under prose, and only under prose', () => {
    const t = 'Here is what HNS has for the pods:\n\n    Name : nat\n    Type : NAT\n';
    expect(cleanPaste(t).text).toBe('Here is what HNS has for the pods:\n\nName : nat\nType : NAT\n');
    expect(cleanPaste('{\n    "Name": "nat",\n    "Type": "NAT"\n}\n').changes).toEqual([]);
  });
});
