// The CollectLogs commands as data: which bundle file each one writes and the PowerShell that prints that
// file's content. The scripts follow microsoft/SDN collectlogs.ps1 (see the reference notes on bundle
// formats) so the files read like any CollectLogs bundle; where the file has a machine-readable part it
// is produced the way the parsers prefer (`ConvertTo-Json -Depth 20` after the summary table). Text is
// written to stdout as UTF-8 (the prologue sets the console encoding) and saved byte for byte.
// The first line of every script is `# hnsight-collect: <id>`: harmless on the node, and how the
// in-repo test server and the fake powershell recognise which command they are answering.
// A command that finds nothing prints nothing and leaves no file (the manifest records it as ok with 0
// bytes); the HNS commands print `[]` instead, which the loader reads as "the command printed nothing:
// no such objects" — a node with no load balancers is not a bundle missing policy.txt.
// The multi-file commands (`multi`: node logs, CNI config) print each file as a frame (file-frames.ts)
// and every file is bounded: logs keep their last bytes, cut at a line start.

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
  /**
   * Several files: the script prints each as a frame (file-frames.ts) and each lands at `<file>/<its name>`,
   * so `file` is a folder. The bounds are what the script enforces, said here so tests and docs agree.
   */
  multi?: { maxFileBytes: number; maxFiles: number; maxTotalBytes: number; headBytes?: number };
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
if ($n.Count) { $n | ConvertTo-Json -Depth 20 } else { '[]' }
`,
  },
  {
    id: 'endpoint', file: 'endpoint.txt', title: 'HNS endpoints', core: true, timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$e = Invoke-Hns Get-HnsEndpoint
Out-Wide ($e | Select-Object @{Name='IpAddress'; Expression={ if ($_.IpConfigurations) { $_.IpConfigurations.IpAddress } else { $_.IPAddress } }}, MacAddress, IsRemoteEndpoint, State)
if ($e.Count) { $e | ConvertTo-Json -Depth 20 } else { '[]' }
`,
  },
  {
    id: 'namespaces', file: 'namespaces.txt', title: 'HNS namespaces', timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$s = Invoke-Hns Get-HnsNamespace
Out-Wide ($s | Select-Object ID, @{Name='CompartmentID'; Expression={ if ($_.NamespaceId) { $_.NamespaceId } else { $_.CompartmentId } }}, Type)
if ($s.Count) { $s | ConvertTo-Json -Depth 20 } else { '[]' }
`,
  },
  {
    id: 'policy', file: 'policy.txt', title: 'HNS load balancers', core: true, timeoutMs: 120_000,
    body: HNS_PRELUDE + String.raw`
$lb = if (Get-Command Get-HnsLoadBalancer -ErrorAction SilentlyContinue) { Invoke-Hns Get-HnsLoadBalancer } else { Invoke-Hns Get-HnsPolicyList }
if ($lb.Count) { $lb | ConvertTo-Json -Depth 20 } else { '[]' }
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
  // …then the multi-file commands, node logs and CNI config (pushed below, after their helpers).
];

/** Node logs: each file's last 5 MiB (cut at a line start), at most 32 files and 64 MiB in all. */
export const LOG_BOUNDS = { maxFileBytes: 5 << 20, maxFiles: 32, maxTotalBytes: 64 << 20, headBytes: 256 << 10 } as const;
/** CNI configs: whole files only (a cut JSON is no config), up to 1 MiB each, 32 files, 4 MiB in all. */
export const CNI_BOUNDS = { maxFileBytes: 1 << 20, maxFiles: 32, maxTotalBytes: 4 << 20 } as const;

/**
 * Prints files as frames (file-frames.ts): `Send-File <bundle name> <path> <max bytes> <head bytes> <whole>`.
 * Opened with FileShare ReadWrite+Delete, so a log the service is still writing is read. A file over
 * the bound keeps its last bytes from the first line start; UTF-16 logs stay UTF-16 (BOM re-added).
 * With head bytes and a file larger than head + tail, its first bytes go to `<name>.head.log` too:
 * kubelet and kube-proxy print their version and flags (`FLAG: --x="y"`) once, when they start.
 * `$whole` (configs): a file over the bound is skipped and said on stderr, never cut.
 */
function filesPrelude(totalBytes: number): string {
  return String.raw`
$script:budget = [long]${totalBytes}
function Get-BundleName([string]$path) { (($path -replace '^[A-Za-z]:\\', '') -split '\\' | Where-Object { $_ } | ForEach-Object { $_ -replace '[^A-Za-z0-9._-]', '_' }) -join '/' }
function Send-Bytes([string]$name, [byte[]]$b) {
  if (-not $b -or $b.Length -eq 0) { return }
  $script:budget -= $b.Length
  '#hnsight-file ' + $name
  [Convert]::ToBase64String($b, [Base64FormattingOptions]::InsertLineBreaks)
  '#hnsight-end'
}
function Read-Range($fs, [long]$offset, [long]$count, [bool]$u16, [string]$cut) {
  if ($u16 -and ($offset % 2)) { $offset++; $count-- }
  if ($count -le 0) { return ,([byte[]]@()) }
  $buf = New-Object byte[] $count
  [void]$fs.Seek($offset, [System.IO.SeekOrigin]::Begin)
  $n = 0
  while ($n -lt $count) { $k = $fs.Read($buf, $n, $count - $n); if ($k -le 0) { break }; $n += $k }
  $step = $(if ($u16) { 2 } else { 1 })
  $from = 0; $to = $n
  if ($cut -eq 'start') { $from = $n; for ($i = 0; $i + $step - 1 -lt $n; $i += $step) { if ($buf[$i] -eq 10 -and ($step -eq 1 -or $buf[$i + 1] -eq 0)) { $from = $i + $step; break } } }
  if ($cut -eq 'end') { $to = 0; for ($i = $n - $step; $i -ge 0; $i -= $step) { if ($buf[$i] -eq 10 -and ($step -eq 1 -or $buf[$i + 1] -eq 0)) { $to = $i + $step; break } } }
  $len = $to - $from
  $pre = $(if ($u16 -and $offset + $from -gt 0) { 2 } else { 0 })
  if ($len -le 0) { return ,([byte[]]@()) }
  $outb = New-Object byte[] ($len + $pre)
  if ($pre) { $outb[0] = 0xFF; $outb[1] = 0xFE }
  [Array]::Copy($buf, $from, $outb, $pre, $len)
  return ,$outb
}
function Send-File([string]$name, [string]$path, [long]$max, [long]$head, [bool]$whole) {
  if ($script:budget -le 0) { [Console]::Error.WriteLine("hnsight: not collected (the command's size bound is reached): $path"); return }
  try { $fs = [System.IO.File]::Open($path, [System.IO.FileMode]::Open, [System.IO.FileAccess]::Read, [System.IO.FileShare]'ReadWrite, Delete') }
  catch { [Console]::Error.WriteLine("hnsight: cannot read ${'$'}{path}: $($_.Exception.Message)"); return }
  try {
    $len = $fs.Length
    if ($len -le 0) { return }
    if ($whole) {
      if ($len -gt $max -or $len -gt $script:budget) { [Console]::Error.WriteLine("hnsight: skipped $path ($len bytes, over the $max-byte bound)"); return }
      Send-Bytes $name (Read-Range $fs 0 $len $false '')
      return
    }
    $b2 = New-Object byte[] 2; [void]$fs.Read($b2, 0, 2)
    $u16 = ($b2[0] -eq 0xFF -and $b2[1] -eq 0xFE)
    $max = [Math]::Min($max, $script:budget)
    if ($head -gt 0 -and $len -gt $max + $head) { Send-Bytes ($name -replace '\.log$', '.head.log') (Read-Range $fs 0 $head $u16 'end') }
    $start = [Math]::Max([long]0, $len - $max)
    Send-Bytes $name (Read-Range $fs $start ($len - $start) $u16 $(if ($start -gt 0) { 'start' } else { '' }))
  } finally { $fs.Dispose() }
}
`;
}

// Where Windows nodes keep their component logs (bundle name = the path without the drive, under logs/):
// - C:\k\*.log: AKS (kubelet.log, kubelet.err.log, kubeproxy.log, kubeproxy.err.log, containerd.log,
//   containerd.err.log, azure-vnet.log, azure-vnet-ipam.log, csi-proxy.log — Azure/AgentBaker
//   staging/cse/windows/debug/collect-windows-logs.ps1, see the reference notes on bundle formats §4;
//   the aks-engine log script copies the same c:\k\*.log) and nssm-run flannel/kube-proxy of
//   sig-windows-tools and microsoft/SDN's start scripts (their binaries and logs live in C:\k).
// - C:\var\log\kubelet, C:\var\log\kube-proxy, C:\var\log\kubeproxy: kubeadm-joined nodes
//   (sig-windows-tools kubeadm/scripts PrepareNode.ps1 starts kubelet with --log-dir=C:\var\log\kubelet;
//   Siemens-Healthineers/K2s DebugProxy.ps1 runs kube-proxy with --log-dir=C:\var\log\kubeproxy); klog's
//   own file names there (kubelet.exe.<host>.<user>.log.INFO.<time>) are saved with `.log` appended.
// - C:\var\lib\rancher\rke2\agent\logs: RKE2's kubelet, kube-proxy and Calico logs (rancher/rke2#5248).
// - C:\ProgramData\containerd, C:\var\log\containerd: containerd's --log-file when set there (unverified:
//   containerd registered as a service without --log-file logs to the Application event log, not collected).
// - C:\ProgramData\Amazon\EKS\logs: EKS bootstrap logs (unverified; EKS sends kubelet and kube-proxy to
//   the "EKS" Windows event log, awsdocs amazon-eks-user-guide windows-support, not collected).
export const LOG_DIRS = [
  'C:\\k', 'C:\\var\\log\\kubelet', 'C:\\var\\log\\kube-proxy', 'C:\\var\\log\\kubeproxy', 'C:\\var\\log\\containerd',
  'C:\\ProgramData\\containerd', 'C:\\ProgramData\\Amazon\\EKS\\logs', 'C:\\var\\lib\\rancher\\rke2\\agent\\logs',
];

// CNI config folders (bundle name = the path without the drive, under cni/; the loader takes the first
// .conf/.conflist/.json by name per folder, as containerd does):
// - C:\k\cni\config: microsoft/SDN start-kubelet.ps1 (--cni-conf-dir "c:\k\cni\config"), sig-windows-tools
//   flannel, AKS with kubenet.
// - C:\k\azurecni\netconf: AKS Azure CNI (10-azure.conflist; reference notes §4).
// - C:\etc\cni\net.d and C:\Program Files\containerd\cni\conf: containerd's conf_dir as Windows
//   installs set it and its Windows default.
// - whatever conf_dir containerd's config.toml names (C:\Program Files\containerd\config.toml,
//   AKS's C:\k\containerd\containerd.toml): `[plugins."io.containerd.grpc.v1.cri".cni] conf_dir = "…"`.
export const CNI_DIRS = ['C:\\k\\cni\\config', 'C:\\k\\azurecni\\netconf', 'C:\\etc\\cni\\net.d', 'C:\\Program Files\\containerd\\cni\\conf'];

const psList = (xs: readonly string[]) => xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ');

COLLECT_COMMANDS.push(
  {
    id: 'logs', file: 'logs', title: 'kubelet, kube-proxy, containerd and CNI plugin logs (last 5 MiB of each)', timeoutMs: 300_000,
    multi: LOG_BOUNDS,
    body: filesPrelude(LOG_BOUNDS.maxTotalBytes) + String.raw`
$files = @(foreach ($d in @(${psList(LOG_DIRS)})) {
  if (Test-Path -LiteralPath $d) { Get-ChildItem -LiteralPath $d -File -ErrorAction SilentlyContinue | Where-Object { $_.Name -match '\.log$|\.INFO$|\.log\.INFO\.' -and $_.Name -notmatch '^collect-windows-logs' } }
})
foreach ($f in @($files | Sort-Object LastWriteTime -Descending | Select-Object -First ${LOG_BOUNDS.maxFiles})) {
  $name = Get-BundleName $f.FullName
  if ($name -notmatch '\.log$') { $name += '.log' }
  $head = $(if ($f.Name -match 'kubelet|kube-?proxy') { ${LOG_BOUNDS.headBytes} } else { 0 })
  Send-File $name $f.FullName ${LOG_BOUNDS.maxFileBytes} $head $false
}
`,
  },
  {
    id: 'cni', file: 'cni', title: 'CNI config (.conf, .conflist, .json of every CNI config folder)', timeoutMs: 60_000,
    multi: CNI_BOUNDS,
    body: filesPrelude(CNI_BOUNDS.maxTotalBytes) + String.raw`
$dirs = New-Object System.Collections.Generic.List[string]
foreach ($d in @(${psList(CNI_DIRS)})) { $dirs.Add($d) }
foreach ($toml in @((Join-Path $env:ProgramFiles 'containerd\config.toml'), 'C:\k\containerd\containerd.toml')) {
  if (Test-Path -LiteralPath $toml) {
    foreach ($m in @(Select-String -LiteralPath $toml -Pattern '^\s*conf_dir\s*=\s*["''](.+?)["'']')) { $dirs.Add(($m.Matches[0].Groups[1].Value -replace '\\\\', '\' -replace '/', '\')) }
  }
}
$seen = @{}
$sent = 0
foreach ($d in $dirs) {
  $key = $d.TrimEnd('\').ToLowerInvariant()
  if ($seen.ContainsKey($key) -or -not (Test-Path -LiteralPath $d)) { continue }
  $seen[$key] = $true
  foreach ($f in @(Get-ChildItem -LiteralPath $d -File -ErrorAction SilentlyContinue | Where-Object { $_.Name -match '\.(conf|conflist|json)$' } | Sort-Object Name)) {
    if ($sent -ge ${CNI_BOUNDS.maxFiles}) { break }
    Send-File (Get-BundleName $f.FullName) $f.FullName ${CNI_BOUNDS.maxFileBytes} 0 $true
    $sent++
  }
}
`,
  },
);

export const MARKER = '# hnsight-collect: ';

export function scriptFor(c: CollectCommand): string {
  return `${MARKER}${c.id}\n${c.body.trim()}\n`;
}

/** The command id a script was made for, or null. */
export function commandIdOf(script: string): string | null {
  const m = /# hnsight-collect: ([A-Za-z0-9_-]+)/.exec(script);
  return m ? m[1] : null;
}
