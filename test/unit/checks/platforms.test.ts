// Every check in the catalogue declares the plugins whose facts it relies on and what it assumes;
// the declarations follow the plugins' facts, and the catalogue README lists each check with them.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../../../analysis/checks/index.ts';
import { FACTS, PLUGINS } from '../../../analysis/platform/index.ts';

const readme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../analysis/checks/README.md'), 'utf8');
const of = (id: string) => CHECKS.find((c) => c.id === id)!;

describe('check declarations', () => {
  it('every check says where it applies and what it assumes', () => {
    for (const c of CHECKS) {
      expect(c.platforms === 'any' || (c.platforms.length > 0 && c.platforms.every((p) => (PLUGINS as readonly string[]).includes(p))), c.id).toBe(true);
      expect(c.assumes.length, c.id).toBeGreaterThan(30);
    }
  });

  it('the plugin-specific checks follow the facts', () => {
    const where = (pred: (f: (typeof FACTS)[keyof typeof FACTS]) => boolean) => PLUGINS.filter((p) => pred(FACTS[p])).sort();
    expect([...(of('pod-gateway').platforms as string[])].sort()).toEqual(where((f) => !!f.gateway));
    expect([...(of('remote-subnets').platforms as string[])].sort()).toEqual(where((f) => f.crossNode.how === 'host-routes' || f.crossNode.how === 'remote-subnet-routes'));
    expect([...(of('outboundnat').platforms as string[])].sort()).toEqual(where((f) => f.outboundNat.used));
    // The five false errors: neither Flannel rule runs on Azure CNI.
    for (const p of ['azure-cni', 'azure-cni-overlay', 'eks-vpc-bridge'] as const) expect(of('remote-subnets').platforms).not.toContain(p);
    expect(FACTS['azure-cni-overlay'].gateway?.rule).toBe('dot1');
    expect(FACTS['flannel-host-gw'].gateway?.rule).toBe('dot2');
  });

  it('every fact names its source', () => {
    for (const p of PLUGINS) {
      const f = FACTS[p];
      for (const s of [f.gateway?.source, f.crossNode.source, f.outboundNat.source, f.dns.source].filter(Boolean)) expect(s!.length, p).toBeGreaterThan(20);
    }
  });

  it('the catalogue README lists every check module with its platforms', () => {
    for (const c of CHECKS) {
      expect(readme, c.id).toContain(`\`${c.id}\``);
      for (const id of c.ids) expect(readme, id).toContain(`\`${id}\``);
    }
    for (const p of PLUGINS) expect(readme).toContain(FACTS[p].label);
  });
});
