// The CollectLogs commands as data: which bundle file each one writes and the PowerShell that prints that
// file's content. The scripts follow microsoft/SDN collectlogs.ps1 (see the reference notes on bundle
// formats) so the files read like any CollectLogs bundle; where the file has a machine-readable part it
// is produced the way the parsers prefer (`ConvertTo-Json -Depth 20` after the summary table). Text is
// written to stdout as UTF-8 (the prologue sets the console encoding) and saved byte for byte.
// The first line of every script is `# hnsight-collect: <id>`: harmless on the node, and how the
// in-repo test server and the fake powershell recognise which command they are answering.

export interface CollectCommand {
  id: string;
  /** Bundle file, relative to the output folder (forward slashes). */
  file: string;
  title: string;
  /** Without the marker line (added by `scriptFor`). */
  body: string;
  timeoutMs: number;
  /** Core files: the bundle is not useful without them (a failure marks the collection failed, not partial). */
  core?: boolean;
}

/** Finds a Get-Hns* command: the in-box HostNetworkingService module, else SDN's hns.v2.psm1 under C:\k\debug. */
const HNS_PRELUDE = String.raw`
function Get-HnsCmd([string]$name) {
  $c = Get-Command $name -ErrorAction SilentlyContinue
  if (-not $c) { foreach ($m in 'C:\k\debug\hns.v2.psm1','C:\k\debug\hns.psm1','C:\k\hns.psm1') { if (Test-Path $m) { Import-Module $m -DisableNameChecking -ErrorAction SilentlyContinue; $c = Get-Command $name -ErrorAction SilentlyContinue; if ($c) { break } } } }
  if (-not $c) { throw "$name is not available on this node (no HostNetworkingService module, no hns.psm1 in C:\k\debug)" }
  return $c
}
function Invoke-Hns([string]$name) {
  $c = Get-HnsCmd $name; $p = @{}
  if ($c.Parameters -and $c.Parameters.ContainsKey('Version')) { $p.Version = 2 }
  return @(& $c @p)
}
function Out-Wide($o) { $o | Format-Table -AutoSize | Out-String -Width 4096 }
`;

const VFP_PRELUDE = String.raw`
if (-not (Get-Command vfpctrl.exe -ErrorAction SilentlyContinue)) { throw 'vfpctrl.exe is not on this node (is the VFP extension installed?)' }
function Get-VfpPortList {
  $out = (& vfpctrl.exe /list-vmswitch-port) -join "` + '`r`n' + String.raw`"
  $ports = @()
  foreach ($block in ($out -split "` + '`r`n`r`n' + String.raw`")) {
    $o = [ordered]@{}
    foreach ($l in ($block -split "` + '`r`n' + String.raw`")) { if ($l -match '^\s*([^:]+?)\s*:\s*(.*)$') { $o[$Matches[1]] = $Matches[2].Trim() } }
    if ($o['Port name']) { $ports += [pscustomobject]$o }
  }
  return $ports
}
`;

export const COLLECT_COMMANDS: CollectCommand[] = [
  {
    id: 'network', file: 'network.txt', title: 'HNS networks', core: true, timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$n = Invoke-Hns Get-HnsNetwork
Out-Wide ($n | Select-Object Name, Type, Id, @{Name='AddressPrefix'; Expression={ if ($_.Ipams) { $_.Ipams.Subnets.IpAddressPrefix } else { $_.Subnets.AddressPrefix } }})
if ($n.Count) { $n | ConvertTo-Json -Depth 20 }
`,
  },
  {
    id: 'endpoint', file: 'endpoint.txt', title: 'HNS endpoints', core: true, timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$e = Invoke-Hns Get-HnsEndpoint
Out-Wide ($e | Select-Object @{Name='IpAddress'; Expression={ if ($_.IpConfigurations) { $_.IpConfigurations.IpAddress } else { $_.IPAddress } }}, MacAddress, IsRemoteEndpoint, State)
if ($e.Count) { $e | ConvertTo-Json -Depth 20 }
`,
  },
  {
    id: 'namespaces', file: 'namespaces.txt', title: 'HNS namespaces', timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$s = Invoke-Hns Get-HnsNamespace
Out-Wide ($s | Select-Object ID, @{Name='CompartmentID'; Expression={ if ($_.NamespaceId) { $_.NamespaceId } else { $_.CompartmentId } }}, Type)
if ($s.Count) { $s | ConvertTo-Json -Depth 20 }
`,
  },
  {
    id: 'policy', file: 'policy.txt', title: 'HNS load balancers', core: true, timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$lb = if (Get-Command Get-HnsLoadBalancer -ErrorAction SilentlyContinue) { Invoke-Hns Get-HnsLoadBalancer } else { Invoke-Hns Get-HnsPolicyList }
if ($lb.Count) { $lb | ConvertTo-Json -Depth 20 }
`,
  },
  {
    id: 'hnsdiag', file: 'hnsdiag.txt', title: 'hnsdiag list all -d', timeoutMs: 120_000,
    body: String.raw`
if (-not (Get-Command hnsdiag.exe -ErrorAction SilentlyContinue)) { throw 'hnsdiag.exe is not on this node' }
& hnsdiag.exe list all -d
`,
  },
  {
    id: 'ip', file: 'ip.txt', title: 'ipconfig /allcompartments /all, Get-NetIPAddress, Get-NetIPInterface', core: true, timeoutMs: 120_000,
    body: String.raw`
& ipconfig.exe /allcompartments /all
Get-NetIPAddress -IncludeAllCompartments | Out-String -Width 4096
Get-NetIPInterface -IncludeAllCompartments | Format-Table -AutoSize | Out-String -Width 4096
`,
  },
  {
    id: 'routes', file: 'routes.txt', title: 'route print, Get-NetRoute', core: true, timeoutMs: 120_000,
    body: String.raw`
& route.exe print
Get-NetRoute -IncludeAllCompartments | Format-Table -AutoSize | Out-String -Width 4096
`,
  },
  {
    id: 'ports', file: 'ports.txt', title: 'vfpctrl /list-vmswitch-port and port counters', core: true, timeoutMs: 300_000,
    body: VFP_PRELUDE + String.raw`
& vfpctrl.exe /list-vmswitch-port
foreach ($p in Get-VfpPortList) { "Get-port-counter for port:  $($p.'Port name')"; & vfpctrl.exe /port $p.'Port name' /get-port-counter }
`,
  },
  {
    id: 'vfpOutput', file: 'vfpOutput.txt', title: 'VFP policies of every port (dumpVfpPolicies)', core: true, timeoutMs: 900_000,
    body: VFP_PRELUDE + String.raw`
$ports = Get-VfpPortList
$ports | Select-Object 'Port name', 'MAC address', 'PortId' | Format-Table -AutoSize | Out-String -Width 4096
foreach ($p in $ports) {
  $g = $p.'Port name'
  'Policy for port : '; $g
  & vfpctrl.exe /list-space /port $g
  & vfpctrl.exe /list-mapping /port $g
  & vfpctrl.exe /port $g /get-rule-counter
  & vfpctrl.exe /port $g /get-port-state
  & vfpctrl.exe /port $g /list-nat-range
  & vfpctrl.exe /port $g /get-flow-stats
}
`,
  },
  {
    id: 'mtu', file: 'mtu.txt', title: 'netsh int ipv4 sh int', timeoutMs: 60_000,
    body: String.raw`& netsh.exe int ipv4 sh int`,
  },
  {
    id: 'arp', file: 'arp.txt', title: 'arp -a, Get-NetNeighbor', timeoutMs: 60_000,
    body: String.raw`
& arp.exe -a
Get-NetNeighbor -IncludeAllCompartments | Format-Table -AutoSize | Out-String -Width 4096
`,
  },
  {
    id: 'netadapter', file: 'netadapter.txt', title: 'Get-NetAdapter -IncludeHidden', timeoutMs: 60_000,
    body: String.raw`Get-NetAdapter -IncludeHidden | Format-Table -AutoSize | Out-String -Width 4096`,
  },
  {
    id: 'windowsServices', file: 'windowsServices.txt', title: 'Windows services', timeoutMs: 60_000,
    body: String.raw`Get-Service hns, vfpext, kubeproxy, tcpip, kubelet, containerd, docker -ErrorAction SilentlyContinue | Format-Table -AutoSize | Out-String -Width 4096`,
  },
  {
    id: 'excludedportrange', file: 'excludedportrange.txt', title: 'excluded port ranges', timeoutMs: 60_000,
    body: String.raw`
& netsh.exe int ipv4 sh excludedportrange TCP
& netsh.exe int ipv4 sh excludedportrange UDP
`,
  },
  {
    id: 'dynamicportrange', file: 'dynamicportrange.txt', title: 'dynamic port ranges', timeoutMs: 60_000,
    body: String.raw`
& netsh.exe int ipv4 sh dynamicportrange TCP
& netsh.exe int ipv4 sh dynamicportrange UDP
`,
  },
  // OSVersion's revision is 0 (CollectLogs' own line); the update build revision is the registry value
  // UBR (Windows SDK winnt.h UNIFIEDBUILDREVISION_VALUE), written after it as `Build revision N`
  // (read by parsers/model/assemble.ts).
  {
    id: 'winver', file: 'winver.txt', title: 'Windows version and hotfixes', timeoutMs: 60_000,
    body: String.raw`
[System.Environment]::OSVersion.ToString()
$cv = Get-ItemProperty 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion' -ErrorAction SilentlyContinue
if ($cv -and $null -ne $cv.UBR) { "Build revision $($cv.UBR)" }
''
$h = Get-HotFix -ErrorAction SilentlyContinue
if ($h) { $h | Format-Table -AutoSize | Out-String -Width 4096 } else { '<No hotfix>' }
`,
  },
];

export const MARKER = '# hnsight-collect: ';

export function scriptFor(c: CollectCommand): string {
  return `${MARKER}${c.id}\n${c.body.trim()}\n`;
}

/** The command id a script was made for, or null. */
export function commandIdOf(script: string): string | null {
  const m = /# hnsight-collect: ([A-Za-z0-9_-]+)/.exec(script);
  return m ? m[1] : null;
}
