export { k8sNames, withPod, withService, protoName, type K8sNames, type K8sRef } from './names.ts';
export { serviceRanges, serviceRangeOf, type ServiceRange } from './service-range.ts';
export { serviceIntents, podIntent, snapshotMoments, skewNote, SKEW_MS, type ServiceIntent, type PodIntent, type SnapshotMoments } from './intent.ts';
