export { k8sNames, withPod, withService, protoName, type K8sNames } from './names.ts';
