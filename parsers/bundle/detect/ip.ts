// ipconfig (/all, /allcompartments) in any language the ipconfig parser knows, and the PowerShell
// outputs ip.txt appends: Get-NetIPAddress (list view) and Get-NetIPInterface (table).
import { compartmentTitle, isAdapterHeader, isIpconfigTitle, splitKeyValue } from '../../ipconfig/layout.ts';
import { lookupLabel, type Field } from '../../ipconfig/labels.ts';

// `ipconfig /allcompartments` titles each compartment (en, de, fr, es, zh, ja; the zh and ja titles
// carry the number inside). Other languages are found by layout (a title between banner lines).
const COMPARTMENT_BANNER = /^\s*(?:Network Information for Compartment|Netzwerkinformationen für Depot|Informations réseau pour le compartiment|Información de red para el compartimi?ento|隔离舱|区间|コンパートメント)\s*\d+/i;

// Labels only `ipconfig /all` prints (plain ipconfig shows the DNS suffix, addresses, mask and
// gateway): the host block's Host Name and Node Type, an adapter's Description, Physical Address,
// DHCP Enabled, Autoconfiguration Enabled and DNS Servers, in any language labels.ts knows.
const ALL_ONLY: ReadonlySet<Field> = new Set<Field>(['hostName', 'primaryDnsSuffix', 'nodeType', 'description', 'mac', 'dhcpEnabled', 'autoconfig', 'dnsServers']);
import { at, clamp, nonBlankLines, type Detection, type Sample } from './types.ts';

export function detectIp(s: Sample): Detection | null {
  let title = -1;
  let compartments = 0;
  let adapters = 0;
  let dotted = 0;
  let firstAdapter = -1;
  const listKeys = new Set<string>();
  let listFirst = -1;
  let ifTable = -1;
  const allOnly = new Set<Field>();
  let allFirst = -1;
  for (const [i, l] of nonBlankLines(s)) {
    if (title < 0 && isIpconfigTitle(l)) title = i;
    else if (COMPARTMENT_BANNER.test(l) || (compartments > 0 || title >= 0) && compartmentTitle(s.lines, i)) compartments++;
    else if (isAdapterHeader(s.lines, i)) {
      adapters++;
      if (firstAdapter < 0) firstAdapter = i;
    } else if (/(\. )+\.?\s*:/.test(l) || /\.\s?:\s/.test(l) && /\.\s\./.test(l)) {
      dotted++;
      const kv = splitKeyValue(l);
      const f = kv && lookupLabel(kv.label)?.field;
      if (f && ALL_ONLY.has(f)) {
        allOnly.add(f);
        if (allFirst < 0) allFirst = i;
      }
    }
    const kv = /^(IPAddress|InterfaceIndex|InterfaceAlias|AddressFamily|PrefixOrigin|SuffixOrigin|AddressState|PrefixLength|SkipAsSource)\s+:/.exec(l);
    if (kv) {
      const [, key = ''] = kv;
      listKeys.add(key);
      if (listFirst < 0) listFirst = i;
    }
    if (ifTable < 0 && /^\s*ifIndex\s+InterfaceAlias\s+AddressFamily\s+NlMtu/.test(l)) ifTable = i;
  }
  if (ifTable >= 0) return { kind: 'ip', format: 'Get-NetIPInterface', score: 0.95, reason: `Get-NetIPInterface's table header at ${at(ifTable)}` };
  if (listKeys.size >= 4) return { kind: 'ip', format: 'Get-NetIPAddress', score: clamp(0.5 + listKeys.size * 0.07), reason: `Get-NetIPAddress records from ${at(listFirst)} (${[...listKeys].slice(0, 4).join(', ')})` };
  if (title < 0 && compartments === 0 && (adapters === 0 || dotted < 2)) return null;
  const score = clamp((title >= 0 ? 0.45 : 0) + (compartments ? 0.5 : 0) + Math.min(0.3, adapters * 0.15) + Math.min(0.3, dotted * 0.03));
  // /all is said by its own labels, not by how many lines there are (plain ipconfig over many adapters is long too).
  const all = allOnly.size >= 2;
  const format = compartments ? (all ? 'ipconfig /allcompartments /all' : 'ipconfig /allcompartments') : all ? 'ipconfig /all' : 'ipconfig';
  const where = title >= 0 ? `its title at ${at(title)}` : compartments ? 'compartment banners' : `an adapter header at ${at(firstAdapter)}`;
  const allWhy = all ? `, labels only /all prints from ${at(allFirst)}` : '';
  return { kind: 'ip', format, score, reason: `${format}: ${where}, ${adapters} adapter${adapters === 1 ? '' : 's'}, ${dotted} dotted label line${dotted === 1 ? '' : 's'}${allWhy}` };
}
