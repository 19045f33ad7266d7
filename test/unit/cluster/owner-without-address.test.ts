// A node whose bundle shows no address of its own (no ipconfig, no provider address, no node IP) still
// owns its pod subnet; its peers' routes to that subnet cannot be judged against an address nobody
// knows. The cross-node checks must then say nothing rather than "X is at undefined" (a false error).
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupClusters, loadGeneratedCluster } from '../../helpers/cluster.ts';
import { runClusterChecks } from '../../../analysis/cluster/index.ts';
import type { PlatformName } from '../../../tools/gen/index.ts';

afterAll(cleanupClusters);

// flannel-vxlan: RemoteSubnetRoutes and remote endpoints; flannel-host-gw: host routes.
const PLATFORMS: PlatformName[] = ['flannel-vxlan', 'flannel-host-gw'];

describe('an owner of a pod subnet whose bundle shows no address of its own', () => {
  for (const platform of PLATFORMS) {
    it(`${platform}: no finding names an unknown address, whichever node lacks its addresses`, async () => {
      const c = await loadGeneratedCluster({ nodes: 3, platform, seed: 41, faults: ['stale-pa'] });
      for (const owner of c.cluster.nodes) {
        const saved = { ...owner.identity };
        Object.assign(owner.identity, { addresses: [], providerAddress: undefined, nodeIp: undefined });
        try {
          const fs = runClusterChecks(c.cluster);
          for (const f of fs) {
            expect(`${f.title} ${f.explanation} ${f.fix}`).not.toContain('undefined');
            expect(f.objects.every((o) => typeof o === 'string')).toBe(true);
          }
        } finally {
          Object.assign(owner.identity, saved);
        }
      }
    });
  }
});
