// Property (issue #26): a healthy generated node of every platform gets no policy or capacity finding
// above info; on Calico nodes, Calico policies that allow what the node allows (an allow-all
// GlobalNetworkPolicy, a Calico NetworkPolicy passing everything to the profile) change nothing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildPlatform } from '../platforms/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { PLATFORMS } from '../../../tools/gen/index.ts';

const MINE = /^(network-policy|port-capacity|cni-)/;
const allowAll = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'allow-all' }, spec: { selector: 'all()', order: 200000, types: ['Ingress', 'Egress'], ingress: [{ action: 'Log' }, { action: 'Allow' }], egress: [{ action: 'Allow' }] } };
const passAll = { apiVersion: 'crd.projectcalico.org/v1', kind: 'NetworkPolicy', metadata: { name: 'pass', namespace: 'default' }, spec: { selector: "has(app) || !has(app)", order: 1, ingress: [{ action: 'Pass' }], egress: [{ action: 'Pass' }] } };

describe('a healthy generated node gives no intent finding', () => {
  for (const platform of PLATFORMS) {
    it(platform, () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (seed) => {
        const calico = platform.startsWith('calico');
        const { model } = buildPlatform(platform, { seed }, {}, (path, t) => {
          if (!calico || path !== 'kubectl-get-all.json') return t;
          const doc = JSON.parse(t);
          doc.items.push(allowAll, passAll);
          return JSON.stringify(doc, null, 2);
        });
        const bad = runChecks(model).filter((f) => MINE.test(f.id) && f.severity !== 'info').map((f) => `${f.id}: ${f.title}`);
        expect(bad).toEqual([]);
        if (calico) expect(model.k8s!.networkPolicies.map((p) => p.flavour)).toEqual(['calico-global', 'calico']);
      }), { numRuns: 2 });
    }, 60_000);
  }
});
