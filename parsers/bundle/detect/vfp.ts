// vfpctrl dumps: rule listings (`LAYER :` / `GROUP :` / `RULE :` blocks, `Policy for port :`
// sections of vfpOutput.txt, the ` ITEM LIST` head of a filtered `/layer … /list-rule`) and
// `/list-vmswitch-port` (`Port name :` with `Port Friendly name` / `Switch name`).
import { at, clamp, nonBlankLines, type Detection, type Sample } from './types.ts';

export function detectVfp(s: Sample): Detection | null {
  let blocks = 0;
  let ports = 0;
  let portNames = 0;
  let supporting = 0;
  let first = -1;
  for (const [i, l] of nonBlankLines(s)) {
    if (/^\s*(LAYER|GROUP|RULE)\s*:/.test(l)) {
      blocks++;
      if (first < 0) first = i;
    } else if (/^\s*Policy for port\s*:/.test(l)) {
      ports++;
      if (first < 0) first = i;
    } else if (/^\s*Port name\s*:/.test(l)) {
      portNames++;
      if (first < 0) first = i;
    } else if (/^\s*(Friendly name|Priority|Match type|Flow TTL|FlagsEx|Conditions:|Rule Data:|ITEM LIST|Port Friendly name|Switch name|PortId|Port State|Direction : (IN|OUT)|Type : (allow|block|lbnat|nat|dynnat|encap|routeencap|transposition|paroute|IPv4|IPv6))\b/.test(l)) supporting++;
  }
  if (portNames > 0 && blocks === 0 && ports === 0) {
    if (supporting === 0) return null;
    return { kind: 'ports', format: 'vfpctrl /list-vmswitch-port', score: clamp(0.5 + portNames * 0.1 + Math.min(0.3, supporting * 0.05)), reason: `vSwitch port blocks ("Port name :") from ${at(first)}` };
  }
  if (blocks + ports === 0) return null;
  const score = clamp((ports ? 0.6 : 0) + (blocks >= 3 ? 0.6 : blocks * 0.2) + Math.min(0.3, supporting * 0.05));
  return {
    kind: 'vfp',
    format: ports ? 'vfpctrl rule dump per port (vfpOutput)' : 'vfpctrl rule listing',
    score,
    reason: `${ports ? `${ports} "Policy for port" section${ports > 1 ? 's' : ''}, ` : ''}${blocks} LAYER/GROUP/RULE block${blocks === 1 ? '' : 's'} from ${at(first)}`,
  };
}
