import { describe, expect, it } from 'vitest';
import { emptyTableMessage, filterRows, sortRows } from '../../../renderer/src/views/inventory-model.ts';
import { filterPolicy, locateRule, orderedLayers } from '../../../renderer/src/inspector/policy-model.ts';
import { groupHits } from '../../../renderer/src/palette/group-hits.ts';
import { fileLine, formatBytes, shortGuid } from '../../../renderer/src/lib/format.ts';
import type { InventoryRow, PortPolicyView, SearchHit, VfpRuleView } from '../../../analysis/view-models/types.ts';
import { summary } from './fake-api.ts';

const row = (ip: string, extra: Record<string, string> = {}): InventoryRow => ({ ref: { type: 'endpoint', id: ip }, cells: { ip, ...extra } });

describe('inventory rows', () => {
  it('sorts IPs by value and puts empty cells last', () => {
    const rows = [row('10.244.0.10'), row('10.244.0.9'), row(''), row('10.244.0.100')];
    expect(sortRows(rows, { key: 'ip', dir: 'asc' }).map((r) => r.cells.ip)).toEqual(['10.244.0.9', '10.244.0.10', '10.244.0.100', '']);
    expect(sortRows(rows, { key: 'ip', dir: 'desc' }).map((r) => r.cells.ip)).toEqual(['10.244.0.100', '10.244.0.10', '10.244.0.9', '']);
  });

  it('filters on every term across cells and flags', () => {
    const rows = [{ ...row('10.244.0.5', { name: 'web' }), flags: ['blocked'] }, row('10.244.0.6', { name: 'db' })];
    expect(filterRows(rows, 'web blocked').map((r) => r.cells.ip)).toEqual(['10.244.0.5']);
    expect(filterRows(rows, '  ')).toBe(rows);
  });

  it('says a missing file is missing, not empty', () => {
    expect(emptyTableMessage('routes', summary().counts)).toBe('No routes in this bundle: routes.txt is missing.');
    expect(emptyTableMessage('endpoints', summary().counts)).toBe('The bundle lists no HNS endpoints.');
  });
});

const rule = (name: string, line: number, extra: Partial<VfpRuleView> = {}): VfpRuleView => ({ id: name, name, type: 'allow', flags: [], conditions: [], data: [], src: { file: 'vfpOutput.txt', line }, ...extra });

const policy: PortPolicyView = {
  portName: 'P',
  portState: {},
  ruleCount: 3,
  src: { file: 'vfpOutput.txt', line: 1 },
  layers: [
    { id: 'SLB', name: 'SLB_NAT_LAYER', priority: 50, flags: [], src: { file: 'vfpOutput.txt', line: 30 }, groups: [{ id: 'G2', name: 'G2', direction: 'OUT', ipVersion: 'IPv4', matchType: 'LPM', conditions: [], src: { file: 'vfpOutput.txt', line: 31 }, rules: [rule('EXCEPTIONS_OUTBOUNDNAT_1', 32, { conditions: [{ key: 'Destination IP', value: '10.244.0.0-10.244.255.255' }] })] }] },
    { id: 'LB', name: 'LB_DSR', priority: 45, flags: [], src: { file: 'vfpOutput.txt', line: 10 }, groups: [{ id: 'G1', name: 'G1', direction: 'OUT', ipVersion: 'IPv4', matchType: 'priority', conditions: [], src: { file: 'vfpOutput.txt', line: 11 }, rules: [rule('LB_DSR_A', 12, { type: 'lbnat' }), rule('LB_DSR_B', 20, { type: 'lbnat' })] }] },
  ],
};

describe('VFP policy view model', () => {
  it('orders layers by priority', () => {
    expect(orderedLayers(policy).map((l) => l.name)).toEqual(['LB_DSR', 'SLB_NAT_LAYER']);
  });

  it('filters rules by name, type or condition text and drops empty layers', () => {
    expect(filterPolicy(orderedLayers(policy), '10.244.0.0').flatMap((l) => l.groups.flatMap((g) => g.rules.map((r) => r.name)))).toEqual(['EXCEPTIONS_OUTBOUNDNAT_1']);
    expect(filterPolicy(orderedLayers(policy), 'lbnat LB_DSR_B').map((l) => l.name)).toEqual(['LB_DSR']);
  });

  it('locates a rule by line, else by name', () => {
    const layers = orderedLayers(policy);
    expect(locateRule(layers, { name: 'ignored', line: 20 })?.rule.name).toBe('LB_DSR_B');
    expect(locateRule(layers, { name: 'EXCEPTIONS_OUTBOUNDNAT_1' })).toMatchObject({ layer: 'SLB', group: 'G2', index: 0 });
    expect(locateRule(layers, { name: 'nope' })).toBeUndefined();
  });
});

describe('palette grouping', () => {
  it('orders groups by their best hit so the first hit shown is the best overall', () => {
    const hits: SearchHit[] = [
      { ref: { type: 'port', id: 'p' }, text: 'LB_DSR_X', context: '', score: 10, rule: { port: 'p', layer: '', group: '', rule: 'LB_DSR_X', line: 0 } },
      { ref: { type: 'endpoint', id: 'a' }, text: '10.244.1.5', context: '', score: 65 },
      { ref: { type: 'loadbalancer', id: 'l' }, text: '10.244.1.5:80', context: '', score: 40 },
      { ref: { type: 'endpoint', id: 'b' }, text: '10.244.1.50', context: '', score: 30 },
    ];
    const { groups, flat } = groupHits(hits);
    expect(groups.map((g) => g.title)).toEqual(['Endpoints', 'Load balancers', 'VFP rules']);
    expect(flat.map((h) => h.ref.id)).toEqual(['a', 'b', 'l', 'p']);
    expect(groups[2].hits[0].index).toBe(3);
  });
});

describe('format', () => {
  it('formats sizes, GUIDs and file:line', () => {
    // The sizes every layer writes (parsers/text/quantities.ts): binary units.
    expect(formatBytes(878_000_000)).toBe('837 MiB');
    expect(formatBytes(12_400)).toBe('12.1 KiB');
    expect(shortGuid('{2B34F52C-F614-4A59-A635-1DBFBE7B3D80}')).toBe('2b34f52c');
    expect(fileLine('endpoint.txt', 0)).toBe('endpoint.txt');
    expect(fileLine('endpoint.txt', 477)).toBe('endpoint.txt:477');
  });
});
