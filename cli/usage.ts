export const USAGE = `hnsight — see Windows container networking (HNS, VFP, vSwitch) in a CollectLogs bundle

Usage:
  hnsight inspect <bundle-dir|bundle.zip|file> [--json] [--verbose]
  hnsight inspect <file> <file> ... | -
      Load a bundle and print what it holds: object counts, files read (each with what it was
      recognised as), parse issues, what is missing, findings. Several single files (saved outputs,
      pastes) are read together as one node; - reads a pasted output from standard input.
      Exit 0 on success, 1 when the analysis found errors (a file the node is built from that was
      not read, over a budget, is one), 2 on bad usage or unreadable input.
  hnsight inspect <folder of bundles> --cluster [--json] [--verbose]
  hnsight inspect <bundleA> <bundleB> ... --cluster [--json] [--verbose]
      Several nodes of one cluster (one bundle folder or zip each): the nodes by host name and
      addresses, what they believe about each other (remote subnets, host routes, remote endpoints,
      Node objects, Services) and which of those beliefs no open bundle confirms, and the findings
      across nodes naming the odd nodes out and the majority. Exit 1 when there are errors.
  hnsight trace <bundle> --from IP --to IP[:PORT] [--proto tcp|udp|icmp] [--dip IP] [--src-port N]
                [--reply] [--no-findings] [--json]
      Walk a packet through the node's VFP rules: every hop with the rule that matched and why (its
      conditions against the packet), its rewrite (DNAT, SNAT, MAC rewrite, encap) and the file:line
      it came from, the findings about what the packet crosses under the hop they concern, then the
      verdict with the worst of them ("DELIVERED, but …"). --reply walks the answer too;
      --no-findings skips the checks (faster on dumps of a million rules).
      Exit 0 when delivered/forwarded/unknown, 1 when dropped, 2 on bad usage or unreadable input.
  hnsight trace <bundleA> <bundleB> ... | <folder of bundles> --from IP --to IP[:PORT] [--reply] [--json]
      The walk across nodes: where the packet leaves the first node (VXLAN to a provider address,
      a route to a node address, the cloud fabric) it continues on the node that receives it, if
      its bundle is given: uplink, decapsulation, IN layers, delivery; --reply walks the answer
      back. Every hop names its node (--json: per-hop "node", "bundle", "leg"; "handovers").
  hnsight reach <bundle> --from IP [--verdict V]... [--max-walks N] [--no-findings] [--json]
      Every packet from one source at once: the destinations of its family (IPv4 or IPv6), ports
      and protocols split into classes that meet the same rules, each with its verdict, deciding
      rule, rewrites, reply and one example packet (trace it to see the walk). A Service whose
      backends differ lists each one.
  hnsight reach <bundle> [--to IP[:PORT][/PROTO]]... [--verdict V]... [--no-findings] [--json]
      Every local pod and the host against the destinations given (default: the pods on their
      Service ports, every Service port, each remote pod subnet, the node, the outside). Both end
      with the VFP rules that can never match and what the rule counters say.
      --verdict delivered|forwarded|dropped|unknown|ambiguous|insufficient keeps only those.
      Exit 0, 1 when a listed class or cell is dropped, 2 on bad usage or unreadable input.
  hnsight fleet <folder of bundles> [--json] [--verbose]
      Hundreds of nodes, one bundle at a time: one line per node (platform, build, counts, errors,
      warnings, CNI ADD p50/p99), the outliers by each measure, the findings common to most nodes,
      and the findings across nodes. --json prints { nodes, outliers, common, consistency, failed,
      skipped }. Exit 1 when a node or the comparison has errors.
  hnsight report <bundle> [--trace FROM-TO[:PORT][/PROTO] ...] [--notes notes.json] [--redact]
                 [--page a4|letter] --out FILE
      Write a report: the node, the walks (default: the pod → pod, pod → service and pod → outside
      presets), every error and warning finding with its fix and evidence, the notes, and pictures of
      the topology and of each path. Format by extension: .html (self-contained), .md (for a GitHub
      issue), .json (schema hnsight-report/1), .pdf (headless Chromium; HNSIGHT_CHROMIUM names it).
      --redact replaces IPv4 and IPv6 addresses, MACs, GUIDs, container IDs, host and DNS names and
      e-mail addresses with consistent placeholders ([ip-1], [dns-2] …); the report says what it cannot
      recognise (free-text names in notes).
      --page: the paper of a .pdf (or of an .html printed from a browser); default from the locale
      (LC_ALL, LC_PAPER, LANG: US Letter for en_US, fr_CA, es_MX and the other Letter countries,
      else A4). The PDF opens with a summary page; the topology gets a landscape page.
      Exit 0 when written, 2 on bad usage, unreadable input or no Chromium for a PDF.
  hnsight report <bundleA> <bundleB> ... | <folder of bundles> [--trace ...] [--redact] --out FILE
      The report of a cluster: the nodes, the findings across nodes (odd nodes and the majority, the
      lines of both), and each walk as one path across nodes — every hop under its node, the
      hand-over between them, the findings of both nodes on it, the reply (default walks: those the
      findings show, and a pod of the first node to a pod of the second). .json: hnsight-cluster-report/1.
  hnsight diff <bundleA> <bundleB> [--reach] [--json]
      What changed between two bundles: networks, endpoints, load balancers, routes, VFP ports and
      rules added, removed or changed (matched by IDs, VIP:port, rule names), rule counter deltas
      when both dumps have counters, and the findings that appeared or disappeared. --reach: the
      packet classes whose verdict, deciding rule or reply changed, for each pod (matched by
      Kubernetes name, else address) and the host, IPv4 and IPv6 apart: on a dual-stack node a
      pod's IPv6 address is a source of its own, compared with the IPv6 destinations.
      Exit 0 (also when they differ), 2 on bad usage or unreadable input.
  hnsight serve [bundle] [--port N] [--allow DIR]...
      Browser mode: serve the app on 127.0.0.1 (port 0 = any free port) behind a random token and
      print the URL to open. Opens the bundle when one is given. The page opens only that bundle,
      bundles under a folder given with --allow, recent bundles and files dropped on it (uploaded).
  hnsight collect (--winrm http[s]://HOST[:PORT] | --ssh USER@HOST[:PORT] | --kubectl NODE) [--user U]
                  [--password-env VAR] [--insecure-skip-tls-verify] [--auth ntlm|basic]
                  [--identity KEYFILE] [--known-hosts FILE] [--accept-new-host-key]
                  [--kubeconfig FILE] [--context NAME] [--namespace NS] --out DIR [--json]
      Run the CollectLogs commands on a live node and write a bundle to DIR (new or empty) that
      inspect and the app open like any other, with the node's kubelet, kube-proxy, containerd and
      CNI logs (logs/: last 5 MiB of each, 64 MiB in all) and CNI config (cni/);
      hnsight-collect.json says which files are complete,
      partial or missing. WinRM: NTLMv2 with message encryption over http (5985), NTLM or Basic over
      https (5986, certificate checked unless --insecure-skip-tls-verify). SSH: key or password,
      host key checked against known_hosts. kubectl: a short-lived HostProcess pod (SYSTEM, host
      network) pinned to the node, deleted afterwards; needs RBAC to create/exec pods.
      Passwords never go on the command line: --password-env names an environment variable
      holding it, otherwise hnsight asks on the terminal.
      Progress on stderr. Exit 0 complete, 1 partial, 2 bad usage or nothing collected, 130 cancelled.
  hnsight help [command] | hnsight <command> --help
      This text, or the usage of one command (also -h). Exit 0.

Text output is wrapped to the terminal's width (COLUMNS when set, else 100 columns when not a
terminal); --json output is never wrapped.
`;

/**
 * The usage of one command: the blocks of USAGE that begin `  hnsight <command>` (a command may have
 * several forms), under the same heading. Undefined for a name USAGE does not describe.
 */
export function commandUsage(command: string, usage: string = USAGE): string | undefined {
  const blocks: string[][] = [];
  let current: string[] | undefined;
  for (const line of usage.split('\n')) {
    const lead = /^ */.exec(line)?.[0].length ?? 0;
    if (!line.trim() || lead < 2) {
      current = undefined;
    } else if (lead === 2) {
      // A form's first line (`  hnsight trace …`); its wrapped flags and description are indented deeper.
      const [first, second] = line.trim().split(/\s+/);
      current = first === 'hnsight' && second === command ? [line] : undefined;
      if (current) blocks.push(current);
    } else {
      current?.push(line);
    }
  }
  if (!blocks.length) return undefined;
  return `Usage:\n${blocks.map((b) => b.join('\n')).join('\n')}\n`;
}
