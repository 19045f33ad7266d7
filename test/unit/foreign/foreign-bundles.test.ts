// Bundles written by hand from the format reference, by someone who had not seen the parsers or the
// generator (test/fixtures/foreign/README.md): the counts, joins and references must come out as
// their author computed them.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { countObjects } from '../../../analysis/inspect.ts';
import { serviceRanges } from '../../../analysis/k8s/index.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { buildSummary } from '../../../analysis/view-models/summary.ts';
import { fileKindWords } from '../../../analysis/view-models/file-kind-words.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/foreign');
const bundles = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

describe.each(bundles)('%s', (name) => {
  const dir = path.join(root, name);
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));

  it('gives the hand-computed counts', async () => {
    const m = await loadBundle(dir);
    expect(countObjects(m)).toEqual(expected.counts);
  });

  it('reads every core file and joins every endpoint, port and load balancer', async () => {
    const m = await loadBundle(dir);
    for (const f of ['network.txt', 'endpoint.txt', 'policy.txt', 'ip.txt', 'routes.txt', 'vfpOutput.txt']) {
      expect(m.files.find((x) => x.name === f)?.used, f).toBe(true);
    }
    const unexpectedErrors = m.files.flatMap((f) => f.issues.filter((i) => i.severity === 'error' && !(f.name === 'endpoint.txt' && /truncated/.test(i.message))).map((i) => `${f.name}:${i.line} ${i.message}`));
    expect(unexpectedErrors).toEqual([]);
    expect(m.joins.unmatched).toEqual([]);
  });

  it('joins endpoints to the VFP ports and compartments their author wrote', async () => {
    const m = await loadBundle(dir);
    for (const [ep, port] of Object.entries(expected.endpointToVfpPort as Record<string, string>)) {
      const j = m.joins.endpoints.find((x) => x.endpointId === ep.toLowerCase());
      expect(j?.portKey, `port of endpoint ${ep}`).toBe(port.toLowerCase());
    }
    for (const e of expected.endpoints as { id: string; ip: string; remote: boolean; compartment?: number }[]) {
      const got = m.endpoints!.find((x) => x.id === e.id.toLowerCase());
      expect(got?.ip, e.id).toBe(e.ip);
      expect(got?.isRemote, e.id).toBe(e.remote);
      if (typeof e.compartment === 'number') expect(m.joins.endpoints.find((x) => x.endpointId === e.id.toLowerCase())?.compartmentId, `compartment of ${e.ip}`).toBe(e.compartment);
    }
  });

  it('resolves load balancers to the DIPs their author wrote', async () => {
    const m = await loadBundle(dir);
    expect([...new Set(m.loadBalancers!.flatMap((l) => l.vips))].sort()).toEqual([...expected.loadBalancerVIPs].sort());
    for (const lb of expected.loadBalancers as { id: string; endpointIds: string[]; dips: string[] }[]) {
      const got = m.loadBalancers!.find((x) => x.id === lb.id.toLowerCase());
      expect(got, lb.id).toBeDefined();
      const ips = got!.endpointIds.map((id) => m.endpoints!.find((e) => e.id === id.toLowerCase())?.ip);
      expect(ips.sort(), lb.id).toEqual([...lb.dips].sort());
    }
  });
});

describe('facts taken from files hnsight otherwise only lists', () => {
  it('the AKS node cluster configuration is read for its Service range and CNI name, and the summary says so', async () => {
    const m = await loadBundle(path.join(root, 'aks-win-zip-2025'));
    expect(serviceRanges(m)).toEqual([{ cidr: '10.0.0.0/16', file: 'kubeclusterconfig.json', line: 30 }]);
    expect(detectPlatform(m).evidence.some((e) => e.file === 'kubeclusterconfig.json' && /Cni\.Name "azure"/.test(e.says))).toBe(true);
    const files = buildSummary(m, 'b', 0).files;
    const config = files.find((f) => f.name === 'kubeclusterconfig.json')!;
    expect([config.used, config.format, fileKindWords(config.kind, config.used)]).toEqual([true, 'node setup cluster configuration', 'node facts']);
    // A file only listed keeps its word.
    const listed = files.find((f) => f.kind === 'known' && !f.used);
    if (listed) expect(fileKindWords(listed.kind, listed.used)).toBe('listed, not read');
  });
});
