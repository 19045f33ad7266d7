// The names HNS gives the VFP rules it programs, for the checks that must tell two rules of the same
// kind apart by their purpose (an OutBoundNAT exception and a load balancer's allow are both `allow`
// rules). What a rule DOES is never read here: that is analysis/walk/semantics.ts (`ruleAction`).
// A name is HNS's naming, not VFP semantics, so every pattern is kept here with where it was seen:
//   - `REMOTESUBNETROUTE_ENCAP_<hash>_<prefix>_<len>_<VNI>_<PA>_<MAC>`: the overlay encap rules in
//     "Troubleshooting Kubernetes Networking on Windows: Part 1" (Microsoft, 2019) and
//     projectcalico/calico#8569; test/fixtures/foreign/ws2022-overlay-2024/vfpOutput.txt.
//   - `ENCAP_…`: the map-lookup encap rule of the same guide (`Type : m encaps`), which carries no
//     destination of its own and is no RemoteSubnetRoute.
//   - `OUTBOUNDNAT_<hash>_<IP>` and `EXCEPTIONS_OUTBOUNDNAT_<hash>_<range>`: the SLB_NAT_LAYER rules of an
//     endpoint's OutBoundNAT policy (test/fixtures/foreign/ws2019-flannel-l2bridge-2020,
//     test/fixtures/foreign-faults/l2bridge-vfp-drift-exception-and-lb-rule); AKS prints
//     `SNAT_TCP_OUTBOUNDNAT_<n>_<NAT IP>` (microsoft/SDN Kubernetes/windows/debug/
//     TroubleShootContainerNetworking.ps1, where that rule is a dynnat).

const RSR = /REMOTESUBNETROUTE/i;
const RSR_PARTS = /REMOTESUBNETROUTE_[^_]+_[^_]+_(\d+\.\d+\.\d+\.\d+)_(\d+)_(\d+)_(\d+\.\d+\.\d+\.\d+)/i;
const MAP_ENCAP = /^ENCAP_/i;
const OBN_EXCEPTION = /^EXCEPTIONS_OUTBOUNDNAT/i;
const OBN = /^OUTBOUNDNAT/i;
const OBN_ANY = /OUTBOUNDNAT/i;

/** A rule HNS named for a network's RemoteSubnetRoute policy. */
export const isRemoteSubnetRouteName = (name: string) => RSR.test(name);

/** The prefix and provider address a REMOTESUBNETROUTE rule's name carries (for a rule whose conditions were not printed). */
export function remoteSubnetRouteFromName(name: string): { prefix: string; pa: string } | undefined {
  const m = RSR_PARTS.exec(name);
  return m ? { prefix: `${m[1]}/${m[2]}`, pa: m[4] ?? '' } : undefined;
}

/** The guide's map-lookup encap rule (ENCAP_…): an encap rule that is not a RemoteSubnetRoute. */
export const isMapEncapName = (name: string) => MAP_ENCAP.test(name);

/** An OutBoundNAT ExceptionList entry as a rule (EXCEPTIONS_OUTBOUNDNAT_…). */
export const isOutboundNatExceptionName = (name: string) => OBN_EXCEPTION.test(name);

/** The OutBoundNAT rule itself (OUTBOUNDNAT_…). */
export const isOutboundNatName = (name: string) => OBN.test(name);

/** Any rule of an OutBoundNAT policy, AKS's SNAT_TCP_OUTBOUNDNAT_… included. */
export const mentionsOutboundNat = (name: string) => OBN_ANY.test(name);
