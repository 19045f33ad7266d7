// hnsdiag's own layouts: `list all` sections (`Networks:` … with a `Name  ID` header and GUID rows),
// per-object blocks (`Endpoint : <guid>` then indented keys, newer builds), `list loadbalancers`
// rows (`<guid> |  <vip> | <guid> …`), `list adapters` (a `////ADAPTERS////` banner, then
// `Adapter : {GUID}` blocks) and the usage text an older build prints for an object it does not know.
import { at, clamp, nonBlankLines, type Detection, type Sample } from './types.ts';

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export function detectHnsdiag(s: Sample): Detection | null {
  let sections = 0;
  let headers = 0;
  let rows = 0;
  let blocks = 0;
  let lbRows = 0;
  let adapters = false;
  let first = -1;
  let command: string | undefined;
  const seen = new Set<string>();
  for (const [i, l] of nonBlankLines(s)) {
    const sec = /^\s*(Networks|Endpoints|Namespaces|LoadBalancers|Load Balancers)\s*:\s*$/i.exec(l);
    if (sec) {
      sections++;
      const [, name = ''] = sec;
      seen.add(name.toLowerCase().replace(/\s/g, ''));
      if (first < 0) first = i;
      continue;
    }
    if (/^\s*hnsdiag\s+<command>\s+<object>/i.test(l)) {
      return { kind: 'hnsdiag', format: 'hnsdiag usage text', score: 0.9, reason: `${at(i)} is the usage text hnsdiag prints for a command or object it does not know` };
    }
    const cmd = /hnsdiag(?:\.exe)?\s+list\s+(\w+)(\s+-\w+)?/i.exec(l);
    if (cmd && !command) {
      const [, object = '', flag = ''] = cmd;
      command = `hnsdiag list ${object.toLowerCase()}${flag}`;
    }
    if (/^\s*\/{3,}\s*(ADAPTERS|NETWORKS|ENDPOINTS|NAMESPACES|LOADBALANCERS)\s*\/{3,}\s*$/i.test(l)) {
      adapters = /ADAPTERS/i.test(l);
      blocks += 2;
      if (first < 0) first = i;
      continue;
    }
    if (/^(Network|Endpoint|Namespace|Load\s?Balancer|Adapter)\s*:\s*\{?[0-9a-f]{8}-/i.test(l)) {
      blocks++;
      // Its indented `Key : value` lines make the block unmistakable.
      if (/^\s+\S[^:]*\s:\s/.test(s.lines[i + 1] ?? '')) blocks++;
      if (/^Adapter/i.test(l)) adapters = true;
      if (first < 0) first = i;
      continue;
    }
    if (/^\s*Name\s+ID(\s+Virtual Network Name)?\s*$|^\s*ID\s+\|?\s*(Virtual IPs|Endpoint IDs)/i.test(l)) {
      headers++;
      if (first < 0) first = i;
      continue;
    }
    // `<LB guid> | <VIP> | <endpoint guids>`; older builds leave out the pipes.
    if (/^\s*[0-9a-f-]{30,40}\s+\|/i.test(l) || /^\s*[0-9a-f-]{30,40}\s+(\d{1,3}\.){3}\d{1,3}\s+[0-9a-f]{6,}-/i.test(l)) {
      lbRows++;
      continue;
    }
    if (GUID.test(l) && /^\S+\s+[0-9a-f]{8}-/i.test(l.trim())) rows++;
  }
  // hnsdiag's own column header over rows that carry an ID is its layout even without a title.
  const headed = headers > 0 && (rows > 0 || lbRows > 0) ? 0.25 : 0;
  const score = clamp(headed + Math.min(0.7, sections * 0.3) + Math.min(0.3, headers * 0.15) + Math.min(0.6, blocks * 0.25) + Math.min(0.5, lbRows * 0.1) + (sections || headers ? Math.min(0.2, rows * 0.04) : Math.min(0.2, rows * 0.05)) + (command ? 0.15 : 0));
  if (score <= 0) return null;
  const format = adapters
    ? 'hnsdiag list adapters'
    : command ?? (sections >= 2 ? 'hnsdiag list all' : lbRows > 0 ? 'hnsdiag list loadbalancers' : blocks > 0 ? 'hnsdiag list (per-object blocks)' : 'hnsdiag listing');
  const what = [sections && `${sections} section title${sections > 1 ? 's' : ''} (${[...seen].join(', ')})`, headers && `${headers} column header${headers > 1 ? 's' : ''}`, blocks && 'per-object blocks', lbRows && `${lbRows} load balancer rows`, rows && `${rows} rows with an ID`]
    .filter(Boolean)
    .join(', ');
  return { kind: 'hnsdiag', format, score, reason: `hnsdiag output from ${at(Math.max(0, first))}: ${what || 'its command line'}` };
}
