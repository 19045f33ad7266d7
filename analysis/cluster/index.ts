export * from './types.ts';
export { nodeIdentity } from './identity.ts';
export { nodeDigest, percentile, Interner, type NodeDigest, type LbDigest, type DigestOptions } from './digest.ts';
export { buildClusterModel, type ClusterInput, type BuildOptions } from './build.ts';
export { walkAcross, handoverOf, type StitchedWalk, type StitchedHop, type StitchedLeg, type Handover, type StitchedCaveat, type AcrossOptions } from './walk-across.ts';
export { runClusterChecks, CLUSTER_CHECKS, majorityOf, type ClusterCheck, type ClusterFinding, type NodeEvidence } from './checks/index.ts';
export { formatStitched } from './format-walk.ts';
export { summarizeFleet, fleetNode, type FleetSummary, type FleetNode, type FleetOutlier, type FleetCommon } from './fleet.ts';
export { clusterDocument, type ClusterDocument } from './document.ts';
