// CNI configs and bin listings, and containerd's loading rules applied by the cni-config check.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parseCniBinListing, parseCniConfig } from '../../../parsers/cni/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { classifyFile } from '../../../parsers/bundle/classify.ts';
import { loadedConfigs } from '../../../analysis/checks/index.ts';
import { buildWith } from '../checks/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const read = (p: string) => readFileSync(path.join(dir, p), 'utf8');

describe('parseCniConfig', () => {
  it('win-bridge .conf: type, DNS, the ExceptionList with its lines (the seed typo)', () => {
    const r = parseCniConfig(read('cni/win-bridge/10-win-bridge.conf'), 'cni/10-win-bridge.conf');
    expect(r.issues).toEqual([]);
    const c = r.value;
    expect(c).toMatchObject({ ext: 'conf', name: 'cbr0', cniVersion: '0.2.0', hasPluginsKey: false });
    expect(c.plugins).toHaveLength(1);
    expect(c.plugins[0].type).toBe('win-bridge');
    expect(c.plugins[0].dnsServers).toEqual(['10.96.0.10']);
    expect(c.plugins[0].exceptionList.map((x) => [x.value, x.src.line])).toEqual([['10.244.0.0/0', 19], ['10.96.0.0/12', 20], ['10.127.130.0/24', 21]]);
    expect(c.plugins[0].routes).toEqual([{ destinationPrefix: '10.96.0.0/12', needEncap: true }]);
  });
  it('AKS azure conflist (foreign fixture): plugins, AdditionalArgs, cniVersion 0.3.0', () => {
    const c = parseCniConfig(read('foreign/aks-win-zip-2025/10-azure.conflist'), '10-azure.conflist').value;
    expect(c).toMatchObject({ ext: 'conflist', cniVersion: '0.3.0', hasPluginsKey: true });
    expect(c.plugins[0]).toMatchObject({ type: 'azure-vnet', dnsCapability: true, ipamType: 'azure-vnet-ipam' });
    expect(c.plugins[0].exceptionList.map((x) => x.value)).toEqual(['10.224.0.0/12']);
    expect(c.plugins[0].dnsServers).toEqual(['10.0.0.10', '168.63.129.16']);
  });
  it('flannel conflist: policies inside delegate, lower-case keys', () => {
    const c = parseCniConfig(read('cni/two-files/10-flannel.conflist'), 'net.d/10-flannel.conflist').value;
    expect(c.plugins[0].type).toBe('flannel');
    expect(c.plugins[0].exceptionList.map((x) => x.value)).toEqual(['10.244.0.0/16', '10.96.0.0/12']);
  });
  it('invalid JSON and junk never throw', () => {
    expect(parseCniConfig('{ "cniVersion": "0.4.0", ', 'x.conf').value.invalid).toBeTruthy();
    fc.assert(fc.property(fc.string(), fc.nat(400), (junk, cut) => {
      const t = read('cni/win-bridge/10-win-bridge.conf');
      parseCniConfig(t.slice(0, cut) + junk, 'x.conflist');
    }), { numRuns: 200 });
  });
});

describe('bin listing and classification', () => {
  it('Get-ChildItem output', () => {
    const r = parseCniBinListing(read('cni/win-bridge/cni-bin.txt'), 'cni-bin.txt');
    expect(r.value).toMatchObject({ dir: 'C:\\opt\\cni\\bin', files: ['flannel.exe', 'host-local.exe', 'win-overlay.exe'] });
  });
  it('kinds by name and content', () => {
    expect(classifyFile('10-azure.conflist', '{ "cniVersion": "0.3.0" }')).toBe('cni-config');
    expect(classifyFile('anything.json', '{\n "cniVersion": "1.0.0", "name": "x" }')).toBe('cni-config');
    expect(classifyFile('nginx.conf', 'server { listen 80; }')).toBe('known');
    expect(classifyFile('cni-bin.txt', 'flannel.exe')).toBe('cni-bin');
    expect(classifyFile('k.json', '{\n  "apiVersion": "v1",\n  "items": [],\n  "kind": "List"')).toBe('kubectl');
    expect(classifyFile('kubelet.log', 'I0101 …')).toBe('log');
    expect(classifyFile('collect-windows-logs-output.log', 'x')).toBe('known');
  });
});

describe("containerd's loading rules", () => {
  it('only the first file by name is loaded', () => {
    const a = parseCniConfig(read('cni/two-files/05-old.conf'), 'net.d/05-old.conf').value;
    const b = parseCniConfig(read('cni/two-files/10-flannel.conflist'), 'net.d/10-flannel.conflist').value;
    const [r] = loadedConfigs([b, a]);
    expect(r.loaded.file).toBe('net.d/05-old.conf');
    expect(r.ignored.map((c) => c.file)).toEqual(['net.d/10-flannel.conflist']);
  });
});

const enc = new TextEncoder();
const side = (files: Record<string, string>) => () => Object.fromEntries(Object.entries(files).map(([k, v]) => [k, read(v)]));

describe('cni-config check', () => {
  it('the seed typo in the config, a plugin missing from bin, cniVersion < 0.4.0, config vs endpoints', () => {
    const { model } = buildWith({}, undefined, side({ 'cni/10-win-bridge.conf': 'cni/win-bridge/10-win-bridge.conf', 'cni/cni-bin.txt': 'cni/win-bridge/cni-bin.txt' }));
    const fs = runChecks(model).filter((f) => f.area === 'cni');
    const ids = fs.map((f) => f.id).sort();
    expect(ids).toEqual(['cni-exception-typo', 'cni-exceptions-drift', 'cni-plugin-missing', 'cni-version-no-check']);
    const typo = fs.find((f) => f.id === 'cni-exception-typo')!;
    expect(typo.severity).toBe('error');
    expect(typo.evidence[0]).toEqual({ file: 'cni/10-win-bridge.conf', line: 19, text: '"10.244.0.0/0",' });
    const bin = fs.find((f) => f.id === 'cni-plugin-missing')!;
    expect(bin.objects[0]).toBe('win-bridge');
  });
  it(".conflist without plugins; ignored second file", () => {
    const { model } = buildWith({}, undefined, side({ 'net.d/98-loopback.conflist': 'cni/bad-conflist/98-loopback.conflist', 'net.d/99-flannel.conflist': 'cni/two-files/10-flannel.conflist' }));
    const fs = runChecks(model).filter((f) => f.area === 'cni');
    expect(fs.find((f) => f.id === 'cni-conflist-no-plugins')?.severity).toBe('error');
    expect(fs.find((f) => f.id === 'cni-config-loaded')?.title).toMatch(/loads 98-loopback\.conflist; 99-flannel\.conflist is ignored/);
  });
  it('parseBundleFile keeps the config and its text', () => {
    const p = parseBundleFile('10-azure.conflist', enc.encode(read('foreign/aks-win-zip-2025/10-azure.conflist')));
    expect(p.kind).toBe('cni-config');
    expect(p.content.type).toBe('cni-config');
    expect(p.text).toContain('azure-vnet');
  });
});
