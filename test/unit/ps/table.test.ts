import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePsTable } from '../../../parsers/ps/table.ts';
import { splitLines } from '../../../parsers/ps/lines.ts';
import { expectWellFormedIssues, mutate, mutationArb } from './mutations.ts';

const IFACE = [
  '',
  'ifIndex InterfaceAlias                  AddressFamily NlMtu(Bytes) InterfaceMetric Dhcp     ConnectionState PolicyStore',
  '------- --------------                  ------------- ------------ --------------- ----     --------------- -----------',
  '46      vEthernet (586dc7f4402fa8edb... IPv6                  1500              15 Disabled Connected       ActiveStore',
  '1       Loopback Pseudo-Interface 1     IPv4            4294967295              75 Disabled Connected       ActiveStore',
  '',
  '',
];

describe('parsePsTable', () => {
  it('takes columns from the dash runs, right-aligned numbers included, and flags truncated cells', () => {
    const r = parsePsTable(IFACE, 0, 'ip.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.columns.map((c) => c.name)).toEqual(['ifIndex', 'InterfaceAlias', 'AddressFamily', 'NlMtu(Bytes)', 'InterfaceMetric', 'Dhcp', 'ConnectionState', 'PolicyStore']);
    expect(r.value.headerLine).toBe(2);
    expect(r.value.rows).toEqual([
      {
        cells: { ifIndex: '46', InterfaceAlias: 'vEthernet (586dc7f4402fa8edb...', AddressFamily: 'IPv6', 'NlMtu(Bytes)': '1500', InterfaceMetric: '15', Dhcp: 'Disabled', ConnectionState: 'Connected', PolicyStore: 'ActiveStore' },
        line: 4, truncated: true, truncatedColumns: ['InterfaceAlias'], src: { file: 'ip.txt', line: 4 },
      },
      {
        cells: { ifIndex: '1', InterfaceAlias: 'Loopback Pseudo-Interface 1', AddressFamily: 'IPv4', 'NlMtu(Bytes)': '4294967295', InterfaceMetric: '75', Dhcp: 'Disabled', ConnectionState: 'Connected', PolicyStore: 'ActiveStore' },
        line: 5, truncated: false, truncatedColumns: [], src: { file: 'ip.txt', line: 5 },
      },
    ]);
    expect(r.value.endIndex).toBe(5);
  });

  it('joins a header wrapped over several lines in a narrow console (if/Me/tr/ic → ifMetric)', () => {
    const lines = [
      'ifIndex DestinationPrefix  NextHop       RouteMetric if',
      '                                                     Me',
      '                                                     tr',
      '                                                     ic',
      '------- -----------------  -------       ----------- --',
      '45      255.255.255.255/32 0.0.0.0               256 15',
      '24      10.244.18.0/24     10.127.130.35         256 ',
    ];
    const r = parsePsTable(lines, 0, 'routes.txt');
    expect(r.value.columns.map((c) => c.name)).toEqual(['ifIndex', 'DestinationPrefix', 'NextHop', 'RouteMetric', 'ifMetric']);
    expect(r.value.rows.map((x) => x.cells)).toEqual([
      { ifIndex: '45', DestinationPrefix: '255.255.255.255/32', NextHop: '0.0.0.0', RouteMetric: '256', ifMetric: '15' },
      { ifIndex: '24', DestinationPrefix: '10.244.18.0/24', NextHop: '10.127.130.35', RouteMetric: '256', ifMetric: '' },
    ]);
  });

  it('handles a right-aligned column wider than its header', () => {
    const lines = [
      'Name    Count Status',
      '----    ----- ------',
      'alpha  123456 Up',
      'b           7 Down',
    ];
    const r = parsePsTable(lines, 0, 'x.txt');
    expect(r.value.rows.map((x) => x.cells)).toEqual([
      { Name: 'alpha', Count: '123456', Status: 'Up' },
      { Name: 'b', Count: '7', Status: 'Down' },
    ]);
  });

  it('appends Format-Table -Wrap continuation lines to the previous row', () => {
    const lines = [
      'Name Description',
      '---- -----------',
      'hns  Host Network',
      '     Service',
      'vmms Virtual Machine Management',
    ];
    const r = parsePsTable(lines, 0, 'x.txt');
    expect(r.value.rows.map((x) => x.cells)).toEqual([
      { Name: 'hns', Description: 'Host Network Service' },
      { Name: 'vmms', Description: 'Virtual Machine Management' },
    ]);
  });

  it('stops at a blank line followed by JSON or a list, and reports where it ended', () => {
    const lines = ['Name Type', '---- ----', 'cbr0 L2Bridge', '', '[', '  {}', ']'];
    const r = parsePsTable(lines, 0, 'network.txt');
    expect(r.value.rows).toHaveLength(1);
    expect(r.value.endIndex).toBe(3);
    const r2 = parsePsTable(['A B', '- -', '1 2', '', 'Key : value'], 0, 'x');
    expect(r2.value.rows).toHaveLength(1);
  });

  it('starts at the given 0-based index and skips leading blank lines', () => {
    const lines = ['junk', 'more junk', '', 'A  B', '-  -', 'x  y'];
    const r = parsePsTable(lines, 2, 'x');
    expect(r.value.headerLine).toBe(4);
    expect(r.value.rows[0]).toMatchObject({ cells: { A: 'x', B: 'y' }, line: 6 });
  });

  it('reads CRLF and LF input alike', () => {
    const text = IFACE.join('\r\n');
    const a = parsePsTable(splitLines(text), 0, 'ip.txt');
    const b = parsePsTable(splitLines(IFACE.join('\n')), 0, 'ip.txt');
    expect(a.value).toEqual(b.value);
  });

  it('returns an empty table with a warning when there is no dash rule, and never throws on empty input', () => {
    const r = parsePsTable(['just text', 'more text'], 0, 'x');
    expect(r.value.rows).toEqual([]);
    expect(r.issues[0]).toMatchObject({ file: 'x', line: 1, severity: 'warning' });
    expect(parsePsTable([], 0, 'x').value.rows).toEqual([]);
    expect(parsePsTable([''], 5, 'x').value.rows).toEqual([]);
  });

  it('warns about a row that does not line up and cannot be tokenised', () => {
    const r = parsePsTable(['Aa Bb', '-- --', 'xxxxx yy zz'], 0, 'x');
    expect(r.issues.some((i) => i.severity === 'warning' && i.line === 3)).toBe(true);
  });

  it('never throws or hangs on mutated input', () => {
    fc.assert(fc.property(mutationArb, (ms) => {
      const r = parsePsTable(splitLines(mutate(IFACE.join('\r\n'), ms)), 0, 'ip.txt');
      expectWellFormedIssues(r.issues, 'ip.txt');
    }), { numRuns: 300 });
  });
});
