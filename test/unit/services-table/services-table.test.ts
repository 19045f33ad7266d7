// The Services table's view model (issue #26 point 3): the rows are inspect's `services` with the
// table's columns joined; sorting, filtering and grouping by namespace keep every row exactly once.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';
import { servicesTable, SNAPSHOT_COMMAND, type ServiceTableRow } from '../../../analysis/view-models/services-table.ts';
import { DEFAULT_SORT, SERVICE_CHIPS, chipMatches, servicesLines, sortRows, type ServicesSortKey } from '../../../analysis/view-models/services-table-view.ts';

const SORT_KEYS: ServicesSortKey[] = ['namespace', 'name', 'port', 'type', 'vip', 'backends', 'policy', 'state'];
const noFilter = { text: '', chips: new Set<never>() };

describe('servicesTable: inspect\'s rows with the table\'s columns', () => {
  it('gives the same rows, states and evidence as inspect --json, in its order', () => {
    const { model } = buildPlatform('flannel-host-gw', { services: 12, seed: 4, faults: ['stale-backend'] });
    const view = servicesTable(model);
    const inspect = inspectDocument(model).services;
    expect(view.rows.map((r) => [r.namespace, r.name, r.port, r.proto, r.state, r.evidence])).toEqual(inspect.map((r) => [r.namespace, r.name, r.port, r.proto, r.state, r.evidence]));
    expect(view.rows.some((r) => r.state === 'stale backends' && r.tone === 'bad')).toBe(true);
    expect(new Set(view.rows.map((r) => r.key)).size).toBe(view.rows.length);
  });

  it('fills type, VIP, policies, backends and a walk from a local pod that is not a backend', () => {
    const { model } = buildPlatform('flannel-host-gw', { services: 10, seed: 1 });
    const view = servicesTable(model);
    const svcs = model.k8s!.services;
    for (const r of view.rows) {
      const svc = svcs.find((s) => s.namespace === r.namespace && s.name === r.name)!;
      expect(r.type).toBe(svc.type);
      if (r.nodePort) expect(r.vip).toBe('');
      else expect(svc.clusterIps).toContain(r.vip);
      if (r.state === 'realised') expect(r.hnsBackends).toBe(r.ready);
      expect(r.walk, r.key).toBeDefined();
      expect(r.walk!.dstPort).toBe(r.port);
      if (!r.nodePort) expect(r.walk!.dstIp).toBe(r.vip);
      const local = model.endpoints!.filter((e) => !e.isRemote).map((e) => e.ip);
      expect(local).toContain(r.walk!.srcIp);
    }
    expect(view.rows.some((r) => r.nodePort)).toBe(true);
  });

  it('without a kubectl snapshot: no rows, and the words say what to collect', () => {
    const { model } = buildPlatform('flannel-host-gw', {}, { kubectl: false });
    const view = servicesTable(model);
    expect(view.rows).toEqual([]);
    expect(view.empty?.text).toMatch(/^Insufficient information: needs a kubectl snapshot/);
    expect(view.empty?.collect).toBe(SNAPSHOT_COMMAND);
    expect(SNAPSHOT_COMMAND).toContain('kubectl get pods,services,endpointslices,nodes,networkpolicies -A -o json');
  });

  it('without the VFP dump: a realised row says the VFP rules are insufficient information, and a note says so once', () => {
    const { model } = buildPlatform('flannel-host-gw', { services: 6 }, {}, undefined);
    const noVfp = { ...model, vfp: null };
    const view = servicesTable(noVfp);
    const realised = view.rows.filter((r) => r.state === 'realised');
    expect(realised.length).toBeGreaterThan(0);
    for (const r of realised) {
      expect(r.tone).toBe('unknown');
      expect(r.stateText).toMatch(/VFP: insufficient information, needs the VFP dump/);
    }
    expect(view.notes.some((n) => /needs the VFP dump/.test(n))).toBe(true);
    // With the dump, the same rows are plainly realised.
    expect(servicesTable(model).rows.filter((r) => r.state === 'realised').every((r) => r.tone === 'ok' && r.stateText === 'realised')).toBe(true);
  });
});

/** Rows of several namespaces and states, drawn from a seeded generator (a property over many tables). */
function randomRows(seed: number, n: number): ServiceTableRow[] {
  let s = seed;
  const rnd = (k: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % k;
  };
  const states = ['realised', 'stale backends', 'no load balancer', 'missing backends', 'vfp rule missing', 'node port rule missing', 'no ready backends', 'insufficient information'] as const;
  const tones = { realised: 'ok', 'stale backends': 'bad', 'no load balancer': 'bad', 'missing backends': 'bad', 'vfp rule missing': 'bad', 'node port rule missing': 'bad', 'no ready backends': 'design', 'insufficient information': 'unknown' } as const;
  return Array.from({ length: n }, (_, i) => {
    const state = states[rnd(states.length)]!;
    const nodePort = rnd(4) === 0;
    const port = nodePort ? 30000 + rnd(2000) : [53, 80, 443, 8080][rnd(4)]!;
    const vip = nodePort ? '' : `10.96.${rnd(4)}.${rnd(250)}`;
    const where = nodePort ? `NodePort ${port}` : `${vip}:${port}`;
    const r: ServiceTableRow = {
      key: `ns${rnd(5)}/svc-${i}|${where}|TCP`, namespace: `ns${rnd(5)}`, name: `svc-${rnd(40)}`, port, proto: rnd(3) ? 'TCP' : 'UDP', where,
      type: ['ClusterIP', 'NodePort', 'LoadBalancer'][rnd(3)]!, vip, nodePort, ready: rnd(4), hnsBackends: rnd(5) ? rnd(4) : null,
      externalTrafficPolicy: rnd(2) ? 'Local' : undefined, state, stateText: state, tone: tones[state], detail: '', evidence: [],
    };
    r.key = `${r.namespace}/${r.name}|${where}|${r.proto}#${i}`;
    return r;
  });
}

describe('servicesLines: sort, filter and group', () => {
  it('every row appears exactly once under its namespace\'s group, whatever the column and direction', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rows = randomRows(seed, 60);
      for (const key of SORT_KEYS) {
        for (const dir of ['asc', 'desc'] as const) {
          const { lines, shown, total } = servicesLines(rows, { key, dir }, noFilter, new Set());
          const shownRows = lines.flatMap((l) => (l.type === 'row' ? [l.row.key] : []));
          expect(shownRows.slice().sort()).toEqual(rows.map((r) => r.key).sort());
          expect(shown).toBe(rows.length);
          expect(total).toBe(rows.length);
          let group = '';
          for (const l of lines) {
            if (l.type === 'group') group = l.namespace;
            else expect(l.row.namespace).toBe(group);
          }
          const groups = lines.filter((l) => l.type === 'group').map((l) => (l.type === 'group' ? l.namespace : ''));
          expect(new Set(groups).size).toBe(groups.length);
        }
      }
    }
  });

  it('within a group, rows follow the chosen column; descending is ascending reversed on distinct keys', () => {
    const rows = randomRows(7, 200);
    const portsOf = (dir: 'asc' | 'desc') => sortRows(rows, { key: 'port', dir }).map((r) => r.port);
    const asc = portsOf('asc');
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(portsOf('desc')).toEqual([...asc].reverse());
    const byVip = sortRows(rows.filter((r) => r.vip), { key: 'vip', dir: 'asc' }).map((r) => r.vip.split('.').map(Number));
    for (let i = 1; i < byVip.length; i++) {
      const [a, b] = [byVip[i - 1]!, byVip[i]!];
      const cmp = a.map((x, j) => x - b[j]!).find((d) => d !== 0) ?? 0;
      expect(cmp).toBeLessThanOrEqual(0);
    }
  });

  it('the default sort (state) puts rows that are not realised first, and their namespaces first', () => {
    const rows = randomRows(3, 120);
    const { lines } = servicesLines(rows, DEFAULT_SORT, noFilter, new Set());
    const tones = lines.flatMap((l) => (l.type === 'row' ? [l.row.tone] : []));
    const firstGroupRows = lines.slice(1).findIndex((l) => l.type === 'group');
    expect(tones[0]).toBe('bad');
    expect(sortRows(rows, DEFAULT_SORT).findIndex((r) => r.tone !== 'bad')).toBe(rows.filter((r) => r.tone === 'bad').length);
    expect(firstGroupRows).toBeGreaterThan(0);
  });

  it('a chip keeps only the rows whose state it names; several chips widen; counts are over all rows', () => {
    const rows = randomRows(11, 150);
    for (const chip of SERVICE_CHIPS) {
      const { lines, shown, chipCounts } = servicesLines(rows, DEFAULT_SORT, { text: '', chips: new Set([chip]) }, new Set());
      const kept = lines.flatMap((l) => (l.type === 'row' ? [l.row] : []));
      expect(kept.every((r) => chipMatches(chip, r))).toBe(true);
      expect(shown).toBe(rows.filter((r) => chipMatches(chip, r)).length);
      expect(chipCounts[chip]).toBe(shown);
    }
    const both = servicesLines(rows, DEFAULT_SORT, { text: '', chips: new Set(['stale', 'realised'] as const) }, new Set()).shown;
    expect(both).toBe(rows.filter((r) => r.state === 'stale backends' || r.state === 'realised').length);
    // 'not realised' is every fault state.
    expect(rows.filter((r) => chipMatches('not realised', r)).every((r) => r.state !== 'realised' && r.tone === 'bad')).toBe(true);
  });

  it('the text filter needs every word, in any column, without regard to case', () => {
    const rows = randomRows(5, 150);
    const one = rows.find((r) => r.nodePort)!;
    const { lines } = servicesLines(rows, DEFAULT_SORT, { text: `  ${one.namespace.toUpperCase()}/${one.name}   ${one.port} `, chips: new Set() }, new Set());
    const kept = lines.flatMap((l) => (l.type === 'row' ? [l.row] : []));
    expect(kept.map((r) => r.key)).toContain(one.key);
    for (const r of kept) expect(`${r.namespace}/${r.name} ${r.where} ${r.port}`).toContain(String(one.port));
    expect(servicesLines(rows, DEFAULT_SORT, { text: 'no-such-service-anywhere', chips: new Set() }, new Set()).lines).toEqual([]);
  });

  it('a folded namespace keeps its line (with its counts) and hides its rows', () => {
    const rows = randomRows(9, 100);
    const ns = rows[0]!.namespace;
    const { lines, shown } = servicesLines(rows, DEFAULT_SORT, noFilter, new Set([ns]));
    const g = lines.find((l) => l.type === 'group' && l.namespace === ns);
    expect(g).toMatchObject({ collapsed: true, rows: rows.filter((r) => r.namespace === ns).length, notRealised: rows.filter((r) => r.namespace === ns && r.tone === 'bad').length });
    expect(lines.some((l) => l.type === 'row' && l.row.namespace === ns)).toBe(false);
    expect(shown).toBe(rows.length);
  });
});
