import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePsList } from '../../../parsers/ps/list.ts';
import { splitLines } from '../../../parsers/ps/lines.ts';
import { expectWellFormedIssues, mutate, mutationArb } from './mutations.ts';

// A list rendered in an 80-column console: the long alias wraps mid-word at column 80.
const LIST = [
  '',
  'IPAddress         : 10.244.19.7',
  'InterfaceIndex    : 46',
  'InterfaceAlias    : vEthernet (586dc7f4402fa8edbad341f638e51f38620ef195173b2689',
  '                    61deaa9176f1803d_cbr0)',
  'AddressFamily     : IPv4',
  'PolicyStore       :',
  '',
  'IPAddress         : 127.0.0.1',
  'InterfaceIndex    : 1',
  'InterfaceAlias    : Loopback Pseudo-Interface 1',
  '',
  '',
  'ifIndex InterfaceAlias',
  '------- --------------',
];

describe('parsePsList', () => {
  it('reads records separated by blank lines, joins wrapped values, stops at the next table', () => {
    const r = parsePsList(LIST, 0, 'ip.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.records).toEqual([
      {
        fields: {
          IPAddress: '10.244.19.7', InterfaceIndex: '46',
          InterfaceAlias: 'vEthernet (586dc7f4402fa8edbad341f638e51f38620ef195173b268961deaa9176f1803d_cbr0)',
          AddressFamily: 'IPv4', PolicyStore: '',
        },
        fieldLines: { IPAddress: 2, InterfaceIndex: 3, InterfaceAlias: 4, AddressFamily: 6, PolicyStore: 7 },
        line: 2, src: { file: 'ip.txt', line: 2 },
      },
      {
        fields: { IPAddress: '127.0.0.1', InterfaceIndex: '1', InterfaceAlias: 'Loopback Pseudo-Interface 1' },
        fieldLines: { IPAddress: 9, InterfaceIndex: 10, InterfaceAlias: 11 },
        line: 9, src: { file: 'ip.txt', line: 9 },
      },
    ]);
    expect(r.value.endIndex).toBe(11);
  });

  it('joins a value wrapped at a word boundary with a space', () => {
    const r = parsePsList([
      'Name        : x',
      'Description : a long description that PowerShell wrapped at the',
      '              console width',
    ], 0, 'x');
    expect(r.value.records[0].fields.Description).toBe('a long description that PowerShell wrapped at the console width');
  });

  it('keeps duplicate keys with a suffix and a warning', () => {
    const r = parsePsList(['A : 1', 'A : 2'], 0, 'x');
    expect(r.value.records[0].fields).toEqual({ A: '1', A_2: '2' });
    expect(r.issues[0]).toMatchObject({ line: 2, severity: 'warning' });
  });

  it('warns when the start is not a list record; empty input gives no records', () => {
    expect(parsePsList(['not a list'], 0, 'x').issues[0]).toMatchObject({ line: 1, severity: 'warning' });
    expect(parsePsList([], 0, 'x').value.records).toEqual([]);
  });

  it('never throws or hangs on mutated input', () => {
    fc.assert(fc.property(mutationArb, (ms) => {
      const r = parsePsList(splitLines(mutate(LIST.join('\r\n'), ms)), 0, 'ip.txt');
      expectWellFormedIssues(r.issues, 'ip.txt');
    }), { numRuns: 300 });
  });
});
