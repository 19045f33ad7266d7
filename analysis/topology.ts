// NodeModel → the topology graph the UI lays out (elkjs) and draws: uplink → vSwitch → HNS networks →
// host vNICs and endpoints (in compartment groups) → load balancers → remote endpoints → remote
// subnets → next hops. Pure and linear in the number of HNS objects and ports: VFP rules are never
// read (only the per-port counts of the scan index), so the biggest bundles build in milliseconds.
// Each part reads only what the bundle has; a missing file leaves its part out, never guessed. What
// the UI draws folded until expanded (pods' VFP ports, grouped load balancers) is in `attached`.
import type { NodeModel } from '../parsers/model/types.ts';
import type { TopologyGraph, TopologyOptions } from './view-models/types.ts';
import { makeContext } from './topology/context.ts';
import { addLeftoverHostAdapters, addNetworks, addSwitches, addUplinksAndHostVnics } from './topology/host.ts';
import { addLocalEndpoints, addOrphans } from './topology/endpoints.ts';
import { addLoadBalancers } from './topology/loadbalancers.ts';
import { addRemoteEndpoints, addRemoteSubnets } from './topology/remote.ts';

export { DEFAULT_LB_GROUP_THRESHOLD, MAX_PER_GROUP, groupLoadBalancers, lbLabel } from './topology/loadbalancers.ts';
export { RANK } from './topology/host.ts';

export function buildTopology(model: NodeModel, options: TopologyOptions = {}): TopologyGraph {
  const ctx = makeContext(model);
  addSwitches(ctx);
  addNetworks(ctx);
  addUplinksAndHostVnics(ctx);
  addLocalEndpoints(ctx);
  addOrphans(ctx);
  addLeftoverHostAdapters(ctx);
  const remote = addRemoteSubnets(ctx);
  addRemoteEndpoints(ctx, remote);
  const collapsed = addLoadBalancers(ctx, options);
  return { nodes: ctx.g.nodes, edges: ctx.g.edges, collapsed, attached: ctx.g.attached };
}
