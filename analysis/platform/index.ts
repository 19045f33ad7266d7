export * from './types.ts';
export { detectPlatform, nodeAddress, platformLine } from './detect.ts';
export { cloudSuffix, platformName } from './name.ts';
export { FACTS, factsOf, factList, pluginsWhere, type PluginFacts, type Family } from './facts.ts';
export { podNetworkOf } from './signals.ts';
