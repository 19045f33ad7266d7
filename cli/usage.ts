export const USAGE = `hnsight — see Windows container networking (HNS, VFP, vSwitch) in a CollectLogs bundle

Usage:
  hnsight inspect <bundle-dir|bundle.zip|file> [--json]
      Load a bundle and print what it holds: object counts, files read, parse issues, findings.
      Exit 0 on success, 1 when the analysis found errors, 2 on bad usage or unreadable input.
  hnsight trace <bundle> --from IP --to IP[:PORT] [--proto tcp|udp|icmp] [--dip IP] [--src-port N] [--json]
      Walk a packet through the node's VFP rules: every hop with the rule that matched, its rewrite
      (DNAT, SNAT, MAC rewrite, encap) and the file:line it came from, then the verdict.
      Exit 0 when delivered/forwarded/unknown, 1 when dropped, 2 on bad usage or unreadable input.
  hnsight serve [bundle] [--port N]
      Browser mode: serve the app on 127.0.0.1 (port 0 = any free port) behind a random token and
      print the URL to open. Opens the bundle when one is given.
  hnsight help
      This text.

Planned (see the project's issues): report, diff, collect.
`;
