export { k8sNames, withPod, withService, protoName, type K8sNames, type K8sRef } from './names.ts';
export { serviceRanges, serviceRangeOf, type ServiceRange } from './service-range.ts';
export { serviceIntents, podIntent, type ServiceIntent, type PodIntent } from './intent.ts';
export { snapshotMoments, snapshotMoment, bundleMoment, skewNote, SKEW_MS, type SnapshotMoments, type Moment } from './moments.ts';
