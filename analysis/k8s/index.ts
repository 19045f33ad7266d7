export { k8sNames, withPod, withService, protoName, type K8sNames, type K8sRef } from './names.ts';
export { serviceIntents, podIntent, type ServiceIntent, type PodIntent } from './intent.ts';
