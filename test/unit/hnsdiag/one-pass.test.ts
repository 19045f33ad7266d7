// The hnsdiag reader tries each line pattern only on lines whose first or last character allows it,
// and maps a block's keys once per block (parsers/hnsdiag/parse-hnsdiag.ts): on every sample and on
// mutated ones it reads what the reader it replaced reads, issues included
// (reference/parse-hnsdiag-reference.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHnsdiag } from '../../../parsers/hnsdiag/index.ts';
import { parseHnsdiagReference } from './reference/parse-hnsdiag-reference.ts';
import { generatedText, mutated } from '../../helpers/line-mutations.ts';
import { sampleTexts } from '../../helpers/sample-texts.ts';

const samples = [...sampleTexts(['hnsdiag'], ['hnsdiag'], 'hnsdiag.txt'), generatedText('hnsdiag.txt', { schema: 1, seed: 4, windowsBuild: '10.0.17763.5830' })];

describe('hnsdiag read in one pass', () => {
  it('reads every sample as the reader it replaced', () => {
    expect(samples.length).toBeGreaterThan(8);
    for (const t of samples) expect(parseHnsdiag(t)).toEqual(parseHnsdiagReference(t));
  });

  it('reads mutated samples as the reader it replaced', () => {
    fc.assert(fc.property(mutated(samples), (t) => {
      expect(parseHnsdiag(t)).toEqual(parseHnsdiagReference(t));
    }), { numRuns: 400 });
  });

  it('reads blocks with keys spelt any way as the reader it replaced', () => {
    const key = fc.constantFrom('Name', 'name', 'NAME', 'IP Address', 'IPAddress', 'Virtual Network Name', 'Network Name', 'Virtual IPs', 'Direct IP IDs', 'Endpoint IDs', 'Type', 'Description', 'Index', 'Luid', 'Compartment Id', 'Compartment', 'Extra', 'Ports', '__proto__', 'constructor');
    const value = fc.constantFrom('', 'nat', '10.0.0.4', '10.0.0.4 ### pod', 'f6f779ae-9fb9-475d-8ad3-ee3f3f5a11ff', '{4b4ef271-16a4-4c5f-a8c2-590d709b50ab} 4b4ef2', '7', 'x');
    const kind = fc.constantFrom('Network', 'Endpoint', 'Namespace', 'LoadBalancer', 'Load Balancer', 'Adapter', 'adapter', 'NETWORK');
    const block = fc.tuple(kind, fc.constantFrom('7ad74d16-88f1-49c3-85cf-69cbd5d7c63d', 'Ethernet0', '{7AD74D16-88F1-49C3-85CF-69CBD5D7C63D}'), fc.array(fc.tuple(key, value), { maxLength: 8 }))
      .map(([k, id, kv]) => [`${k} : ${id}`, ...kv.map(([a, b]) => `    ${a} : ${b}`)].join('\n'));
    fc.assert(fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
      const t = blocks.join('\n\n');
      expect(parseHnsdiag(t)).toEqual(parseHnsdiagReference(t));
    }), { numRuns: 800 });
  });
});
