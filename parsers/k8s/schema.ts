// The shape of the kubectl objects hnsight reads, checked before any field is used: a field of the
// wrong type (a port that is a string, labels that are not strings, addresses that are no list) makes
// the object malformed, and it is skipped with an issue at its line instead of being half read.
// Only the fields hnsight reads are checked; every other field may be anything (objects stay loose).
// Types follow the Kubernetes API (k8s.io/api core/v1, discovery/v1, networking/v1 types.go) and
// Calico's (projectcalico/api pkg/apis/projectcalico/v3 policy_common.go, networkpolicy.go).
import { z } from 'zod';

const str = z.string();
const strList = z.array(str).nullish();
const labels = z.record(z.string(), z.string()).nullish();
const port = z.number().int().min(0).max(65535);

const metadata = z.looseObject({
  name: z.string().min(1),
  namespace: str.nullish(),
  labels,
  creationTimestamp: str.nullish(),
});

const condition = z.looseObject({ type: str, status: str.nullish(), lastHeartbeatTime: str.nullish(), lastTransitionTime: str.nullish() });

const pod = z.looseObject({
  metadata,
  spec: z.looseObject({
    nodeName: str.nullish(),
    hostNetwork: z.boolean().nullish(),
    dnsPolicy: str.nullish(),
    serviceAccountName: str.nullish(),
    containers: z.array(z.looseObject({ ports: z.array(z.looseObject({ containerPort: port, name: str.nullish(), protocol: str.nullish() })).nullish() })).nullish(),
  }).optional(),
  status: z.looseObject({
    phase: str.nullish(),
    podIP: str.nullish(),
    podIPs: z.array(z.looseObject({ ip: str })).nullish(),
    hostIP: str.nullish(),
    conditions: z.array(condition).nullish(),
    containerStatuses: z.array(z.looseObject({ containerID: str.nullish() })).nullish(),
  }).optional(),
});

const service = z.looseObject({
  metadata,
  spec: z.looseObject({
    type: str.nullish(),
    clusterIP: str.nullish(),
    clusterIPs: strList,
    externalIPs: strList,
    ports: z.array(z.looseObject({ port, protocol: str.nullish(), nodePort: port.nullish(), targetPort: z.union([port, str]).optional(), name: str.nullish() })).nullish(),
    selector: labels,
    externalTrafficPolicy: str.nullish(),
    internalTrafficPolicy: str.nullish(),
  }).optional(),
});

const endpointSlice = z.looseObject({
  metadata,
  addressType: str.nullish(),
  endpoints: z.array(z.looseObject({
    addresses: z.array(str),
    conditions: z.looseObject({ ready: z.boolean().nullish(), serving: z.boolean().nullish(), terminating: z.boolean().nullish() }).nullish(),
    nodeName: str.nullish(),
  })).nullish(),
  ports: z.array(z.looseObject({ port: port.nullish(), protocol: str.nullish(), name: str.nullish() })).nullish(),
});

const node = z.looseObject({
  metadata,
  spec: z.looseObject({ podCIDR: str.nullish(), podCIDRs: strList }).optional(),
  status: z.looseObject({
    addresses: z.array(z.looseObject({ type: str, address: str })).nullish(),
    conditions: z.array(condition).nullish(),
  }).optional(),
});

const selector = z.looseObject({
  matchLabels: labels,
  matchExpressions: z.array(z.looseObject({ key: str, operator: str, values: strList })).nullish(),
});
const k8sPeer = z.looseObject({
  podSelector: selector.nullish(),
  namespaceSelector: selector.nullish(),
  ipBlock: z.looseObject({ cidr: str, except: strList }).nullish(),
});
const k8sPort = z.looseObject({ protocol: str.nullish(), port: z.union([port, str]).nullish(), endPort: port.nullish() });
const networkPolicy = z.looseObject({
  metadata,
  spec: z.looseObject({
    podSelector: selector,
    policyTypes: z.array(z.enum(['Ingress', 'Egress'])).nullish(),
    ingress: z.array(z.looseObject({ from: z.array(k8sPeer).nullish(), ports: z.array(k8sPort).nullish() })).nullish(),
    egress: z.array(z.looseObject({ to: z.array(k8sPeer).nullish(), ports: z.array(k8sPort).nullish() })).nullish(),
  }),
});

// Calico: an entity rule names peers by selector expression and nets; ports are numbers, `a:b` ranges or names.
const calicoEntity = z.looseObject({
  selector: str.nullish(),
  namespaceSelector: str.nullish(),
  notSelector: str.nullish(),
  nets: strList,
  notNets: strList,
  ports: z.array(z.union([port, str])).nullish(),
  notPorts: z.array(z.union([port, str])).nullish(),
}).nullish();
const calicoRule = z.looseObject({ action: z.enum(['Allow', 'Deny', 'Log', 'Pass']), protocol: z.union([str, z.number()]).nullish(), notProtocol: z.union([str, z.number()]).nullish(), ipVersion: z.number().nullish(), source: calicoEntity, destination: calicoEntity });
const calicoPolicy = z.looseObject({
  metadata,
  spec: z.looseObject({
    selector: str.nullish(),
    namespaceSelector: str.nullish(),
    tier: str.nullish(),
    order: z.number().nullish(),
    types: z.array(z.enum(['Ingress', 'Egress'])).nullish(),
    ingress: z.array(calicoRule).nullish(),
    egress: z.array(calicoRule).nullish(),
  }),
});

const namespace = z.looseObject({ metadata });

const SCHEMAS: Record<string, z.ZodType> = {
  Namespace: namespace,
  Pod: pod,
  Service: service,
  EndpointSlice: endpointSlice,
  Node: node,
  NetworkPolicy: networkPolicy,
  GlobalNetworkPolicy: calicoPolicy,
};

/** Calico's NetworkPolicy shares the kind with Kubernetes': told apart by apiVersion. */
export const isCalico = (apiVersion: unknown): boolean => typeof apiVersion === 'string' && /projectcalico\.org\//.test(apiVersion);

/**
 * Why the object is malformed (`spec.ports.0.port: expected number`), or undefined when it has the shape
 * hnsight reads. Kinds hnsight does not read are not checked.
 */
export function malformed(kind: string, apiVersion: unknown, item: unknown): string | undefined {
  const schema = kind === 'NetworkPolicy' && isCalico(apiVersion) ? calicoPolicy : SCHEMAS[kind];
  if (!schema) return undefined;
  const r = schema.safeParse(item);
  if (r.success) return undefined;
  const first = r.error.issues[0];
  if (!first) return 'does not have the expected shape';
  const where = first.path.length ? first.path.map(String).join('.') : '(object)';
  return `${where}: ${first.message}${r.error.issues.length > 1 ? ` (and ${r.error.issues.length - 1} more)` : ''}`;
}
