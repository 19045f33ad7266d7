// `route print` / `netstat -r` (same text; titles localized: de, fr, es, zh, ja) and Get-NetRoute.
import { at, clamp, nonBlankLines, type Detection, type Sample } from './types.ts';

const TABLE_TITLE = /^\s*(IPv4 Route Table|IPv4-Routentabelle|IPv4 Table de routage|Tabla de rutas IPv4|IPv4 路由表|IPv4 ルート テーブル)\s*$/i;
const ACTIVE = /^\s*(Active Routes|Aktive Routen|Itinéraires actifs|Rutas activas|活动路由|アクティブ ルート)\s*:\s*$/i;
const PERSISTENT = /^\s*(Persistent Routes|Ständige Routen|Itinéraires persistants|Rutas persistentes|永久路由|固定ルート)\s*:\s*$/i;
const IFLIST = /^\s*(Interface List|Schnittstellenliste|Liste d.Interfaces|Lista de interfaces|接口列表|インターフェイス一覧)\s*$/i;
const ROW = /^\s*\d{1,3}(\.\d{1,3}){3}\s+\d{1,3}(\.\d{1,3}){3}\s+\S/;

export function detectRoutes(s: Sample): Detection | null {
  let title = -1;
  let active = false;
  let persistent = false;
  let iflist = false;
  let rows = 0;
  let ifRows = 0;
  let netRoute = -1;
  let first = -1;
  let netstat = false;
  for (const [i, l] of nonBlankLines(s)) {
    if (TABLE_TITLE.test(l)) title = title < 0 ? i : title;
    else if (ACTIVE.test(l)) active = true;
    else if (PERSISTENT.test(l)) persistent = true;
    else if (IFLIST.test(l)) iflist = true;
    else if (/^\s*\d+\.{3}/.test(l)) ifRows++;
    else if (ROW.test(l)) {
      rows++;
      if (first < 0) first = i;
    } else if (netRoute < 0 && /^\s*ifIndex\s+DestinationPrefix\s+NextHop/.test(l)) netRoute = i;
    if (/^\s*(\S+>\s*)?netstat\s+-n?r/i.test(l)) netstat = true;
  }
  if (netRoute >= 0) return { kind: 'routes', format: 'Get-NetRoute', score: 0.95, reason: `Get-NetRoute's table header at ${at(netRoute)}` };
  const score = clamp((title >= 0 ? 0.5 : 0) + (active ? 0.2 : 0) + (persistent ? 0.3 : 0) + (iflist ? 0.2 : 0) + Math.min(0.4, rows * 0.08) + Math.min(0.2, ifRows * 0.05));
  if (score < 0.1 || (rows === 0 && title < 0 && !persistent)) return null;
  const format = netstat ? 'netstat -r' : persistent && !active && title < 0 ? 'route print (Persistent Routes only)' : 'route print';
  return {
    kind: 'routes',
    format,
    score,
    reason: `${[title >= 0 && `the IPv4 route table title at ${at(title)}`, active && 'Active Routes', persistent && 'Persistent Routes', rows && `${rows} route row${rows > 1 ? 's' : ''} from ${at(first)}`, ifRows && `${ifRows} interface list rows`].filter(Boolean).join(', ')}`,
  };
}
