// Public API of the bundle generator (tools/gen). See FORMATS.md for the formats and choices.
export { buildNode, computeExpected, DEFAULT_SPEC, isLegacyBuild } from './build.ts';
export { writeBundle, writeBundleFile, bundleFiles, zipName, randomFolderName, timestamp } from './write.ts';
export type { WriteOptions, WriteResult, Encoding, Eol, ZipLayout, BundleFile, FileClass } from './write.ts';
export { DEMOS, writeDemos } from './demo.ts';
export { psJson, psJsonPipeline, Raw } from './psjson.ts';
export { FAULTS, PLATFORM_FAULTS, PLATFORMS } from './types.ts';
export { PROFILES } from './platforms.ts';
export type * from './types.ts';
export { planCluster, buildClusterNode, DEFAULT_CLUSTER, FULL_SNAPSHOT_NODES, OTHER_BUILD } from './cluster-nodes.ts';
export type { ClusterSpec, ClusterPlan, ClusterNodePlan, ClusterExpected } from './cluster-nodes.ts';
export { writeCluster, type ClusterWriteResult } from './cluster-write.ts';
export { clusterCapacity } from './cluster-addressing.ts';
export { CLUSTER_FAULTS } from './types.ts';
