// ports.txt: /list-vmswitch-port blocks + Get-port-counter sections; the vfpOutput.txt port table.
import { describe, expect, it } from 'vitest';
import { parseVfpOutputPortTable } from '../../../parsers/vfp/port-table.ts';
import { parseVmSwitchPorts } from '../../../parsers/vfp/switch-ports.ts';
import { fixture, toCrlf } from './fixture.ts';

describe('parseVmSwitchPorts', () => {
  const text = fixture('ports-two-ports.txt');
  const r = parseVmSwitchPorts(text, 'ports.txt');
  it('reads the documented keys, sentences and statistics', () => {
    expect(r.value).toHaveLength(2);
    const [p] = r.value;
    expect(p).toMatchObject({
      name: '4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF',
      friendlyName: 'Container NIC 6c50381c',
      switchName: '04F2CC76-AE71-4E04-9B0B-D3F27D8BC4E3',
      switchFriendlyName: 'ext',
      portId: 1,
      portType: 'Synthetic',
      nicFriendlyName: 'Container NIC 6c50381c',
      mtu: 1500,
      mac: '00-15-5D-05-C3-0C',
      vmName: 'WIN-NODE01',
      vmId: '5B2E3F44-1A2B-4C3D-8E9F-0A1B2C3D4E5F',
      src: { file: 'ports.txt', line: 4 },
    });
    expect(p.states).toEqual(['Port is Initialized.', 'MAC Learning is Disabled.', 'NIC is Connected.']);
    expect(p.fields['Bytes Sent']).toBe('1234567');
    expect(p.fields['Ingress packet drops : FilteredVLAN']).toBe('3');
    expect(r.value[1]).toMatchObject({ name: '1666B12E-5204-46FB-A42E-1295AE2DF63A', friendlyName: 'ExternalPort', portType: 'External', portId: 2 });
  });
  it('attaches /get-port-counter sections by the marker line', () => {
    expect(r.value[0].counters).toEqual({
      out: { 'Total packets': 100, 'Total bytes': 64000, 'SYN packets': 4, 'TCP Connections Verified': 3, 'Dropped Packets': 1 },
      in: { 'Total packets': 90, 'Total bytes': 51200, 'Dropped Packets': 0 },
    });
    expect(r.value[1].counters).toEqual({ out: { 'Total packets': 7 }, in: { 'Total packets': 8 } });
  });
  it('reports counters of an unlisted port and ERROR lines', () => {
    expect(r.issues.map((i) => [i.line, i.severity])).toEqual([
      [63, 'warning'],
      [64, 'warning'],
    ]);
  });
  it('CRLF gives the same result', () => {
    expect(parseVmSwitchPorts(toCrlf(text), 'ports.txt')).toEqual(r);
  });
  it('Select-String excerpt with `>` match marker (reference sample)', () => {
    const s = parseVmSwitchPorts(fixture('ref-list-vmswitch-port-selectstring.txt'), 'x');
    expect(s.issues).toEqual([]);
    expect(s.value).toEqual([
      {
        name: '4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF',
        friendlyName: 'Container NIC 6c50381c',
        switchName: '04F2CC76-AE71-4E04-9B0B-D3F27D8BC4E3',
        switchFriendlyName: 'ext',
        portId: 1,
        states: [],
        fields: { 'VMQ Usage': '0', 'SR-IOV Usage': '0' },
        src: { file: 'x', line: 1 },
      },
    ]);
  });
  it('empty, junk and truncated input never throw', () => {
    expect(parseVmSwitchPorts('', 'x')).toEqual({ value: [], issues: [] });
    expect(parseVmSwitchPorts('\uFFFD\u0000junk', 'x').value).toEqual([]);
    const cut = parseVmSwitchPorts(text.slice(0, text.indexOf('MTU')), 'x');
    expect(cut.value[0].nicName).toBeDefined();
    expect(cut.value[0].mtu).toBeUndefined();
  });
});

describe('parseVfpOutputPortTable', () => {
  it('slices columns by the dash line', () => {
    const r = parseVfpOutputPortTable(fixture('vfpOutput-two-ports.txt'), 'vfpOutput.txt');
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual([
      { name: '5C3A1D2E-8F4B-4C6A-9E1D-2B3C4D5E6F70', mac: '00-15-5D-AA-87-B8', portId: '5', extra: {}, src: { file: 'vfpOutput.txt', line: 4 } },
      { name: '9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D', mac: '00-15-5D-05-C3-0C', portId: '2', extra: {}, src: { file: 'vfpOutput.txt', line: 5 } },
    ]);
  });
  it('no table: empty result', () => {
    expect(parseVfpOutputPortTable('Policy for port : \nX\n', 'x')).toEqual({ value: [], issues: [] });
  });
});
