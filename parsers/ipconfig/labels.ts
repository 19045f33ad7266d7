// ipconfig prints its labels in the display language of the node. The map below covers English,
// German, French, Spanish, Simplified Chinese and Japanese (Windows UI strings as commonly seen;
// spelling variants included where builds differ). zh and ja come from real outputs: research
// samples ipconfig-all-zh-CN (MetaCubeX/mihomo#1919, XX-Net#11445) and ipconfig-all-ja-JP (Windows 7
// and 10 notes). Labels not listed end up in `extra` and values are then recognised by their shape.

import type { IpconfigLanguage } from './types.ts';

export type Field =
  | 'hostName' | 'primaryDnsSuffix' | 'nodeType' | 'ipRoutingEnabled' | 'winsProxyEnabled' | 'dnsSuffixSearchList'
  | 'dnsSuffix' | 'mediaState' | 'description' | 'mac' | 'dhcpEnabled' | 'autoconfig'
  | 'ipv4' | 'ipv4Auto' | 'mask' | 'ipv6' | 'ipv6Temp' | 'ipv6LinkLocal'
  | 'gateways' | 'dnsServers' | 'netbios' | 'other';

type Lang = Exclude<IpconfigLanguage, 'unknown'>;

const TABLE: Record<Lang, Partial<Record<Field, string[]>>> = {
  en: {
    hostName: ['host name'],
    primaryDnsSuffix: ['primary dns suffix'],
    nodeType: ['node type'],
    ipRoutingEnabled: ['ip routing enabled'],
    winsProxyEnabled: ['wins proxy enabled'],
    dnsSuffixSearchList: ['dns suffix search list', 'connection-specific dns suffix search list'],
    dnsSuffix: ['connection-specific dns suffix'],
    mediaState: ['media state'],
    description: ['description'],
    mac: ['physical address'],
    dhcpEnabled: ['dhcp enabled'],
    autoconfig: ['autoconfiguration enabled'],
    ipv4: ['ipv4 address', 'ip address'],
    ipv4Auto: ['autoconfiguration ipv4 address', 'autoconfiguration ip address'],
    mask: ['subnet mask'],
    ipv6: ['ipv6 address'],
    ipv6Temp: ['temporary ipv6 address'],
    ipv6LinkLocal: ['link-local ipv6 address'],
    gateways: ['default gateway'],
    dnsServers: ['dns servers'],
    netbios: ['netbios over tcpip'],
    other: ['dhcp server', 'lease obtained', 'lease expires', 'dhcpv6 iaid', 'dhcpv6 client duid', 'primary wins server', 'secondary wins server'],
  },
  de: {
    hostName: ['hostname'],
    primaryDnsSuffix: ['primäres dns-suffix'],
    nodeType: ['knotentyp'],
    ipRoutingEnabled: ['ip-routing aktiviert'],
    winsProxyEnabled: ['wins-proxy aktiviert'],
    dnsSuffixSearchList: ['dns-suffixsuchliste', 'verbindungsspezifische dns-suffixsuchliste'],
    dnsSuffix: ['verbindungsspezifisches dns-suffix'],
    mediaState: ['medienstatus'],
    description: ['beschreibung'],
    mac: ['physische adresse', 'physikalische adresse'],
    dhcpEnabled: ['dhcp aktiviert'],
    autoconfig: ['autokonfiguration aktiviert'],
    ipv4: ['ipv4-adresse', 'ip-adresse'],
    ipv4Auto: ['autokonfigurations-ipv4-adresse', 'autokonfiguration ipv4-adresse'],
    mask: ['subnetzmaske'],
    ipv6: ['ipv6-adresse'],
    ipv6Temp: ['temporäre ipv6-adresse'],
    ipv6LinkLocal: ['verbindungslokale ipv6-adresse'],
    gateways: ['standardgateway'],
    dnsServers: ['dns-server'],
    netbios: ['netbios über tcp/ip'],
    other: ['dhcp-server', 'lease erhalten', 'lease läuft ab', 'dhcpv6-iaid', 'dhcpv6-client-duid', 'primärer wins-server', 'sekundärer wins-server'],
  },
  fr: {
    hostName: ["nom de l'hôte", 'nom de l’hôte', "nom de l'hote"],
    primaryDnsSuffix: ['suffixe dns principal'],
    nodeType: ['type de noeud', 'type de nœud'],
    ipRoutingEnabled: ['routage ip activé'],
    winsProxyEnabled: ['proxy wins activé'],
    dnsSuffixSearchList: ['liste de recherche du suffixe dns', 'liste de recherche de suffixes dns propres à la connexion'],
    dnsSuffix: ['suffixe dns propre à la connexion', 'suffixe dns spécifique à la connexion'],
    mediaState: ['statut du média', 'état du média'],
    description: ['description'],
    mac: ['adresse physique'],
    dhcpEnabled: ['dhcp activé'],
    autoconfig: ['configuration automatique activée'],
    ipv4: ['adresse ipv4', 'adresse ip'],
    ipv4Auto: ['adresse ipv4 de configuration automatique', 'adresse ipv4 autoconfigurée'],
    mask: ['masque de sous-réseau'],
    ipv6: ['adresse ipv6'],
    ipv6Temp: ['adresse ipv6 temporaire'],
    ipv6LinkLocal: ['adresse ipv6 de liaison locale'],
    gateways: ['passerelle par défaut'],
    dnsServers: ['serveurs dns'],
    netbios: ['netbios sur tcpip', 'netbios sur tcp/ip'],
    other: ['serveur dhcp', 'bail obtenu', 'bail expirant', 'iaid dhcpv6', 'duid de client dhcpv6', 'serveur wins principal', 'serveur wins secondaire'],
  },
  es: {
    hostName: ['nombre de host'],
    primaryDnsSuffix: ['sufijo dns principal'],
    nodeType: ['tipo de nodo'],
    ipRoutingEnabled: ['enrutamiento ip habilitado'],
    winsProxyEnabled: ['proxy wins habilitado'],
    dnsSuffixSearchList: ['lista de búsqueda de sufijos dns', 'lista de búsqueda de sufijos dns específicos de la conexión'],
    dnsSuffix: ['sufijo dns específico para la conexión'],
    mediaState: ['estado de los medios'],
    description: ['descripción'],
    mac: ['dirección física'],
    dhcpEnabled: ['dhcp habilitado'],
    autoconfig: ['configuración automática habilitada'],
    ipv4: ['dirección ipv4', 'dirección ip'],
    ipv4Auto: ['dirección ipv4 de configuración automática'],
    mask: ['máscara de subred'],
    ipv6: ['dirección ipv6'],
    ipv6Temp: ['dirección ipv6 temporal'],
    ipv6LinkLocal: ['vínculo: dirección ipv6 local', 'dirección ipv6 local de vínculo'],
    gateways: ['puerta de enlace predeterminada'],
    dnsServers: ['servidores dns'],
    netbios: ['netbios sobre tcp/ip', 'netbios sobre tcpip'],
    other: ['servidor dhcp', 'concesión obtenida', 'la concesión expira', 'iaid dhcpv6', 'duid de cliente dhcpv6', 'servidor wins principal', 'servidor wins secundario'],
  },
  zh: {
    hostName: ['主机名'],
    primaryDnsSuffix: ['主 dns 后缀'],
    nodeType: ['节点类型'],
    ipRoutingEnabled: ['ip 路由已启用'],
    winsProxyEnabled: ['wins 代理已启用'],
    dnsSuffixSearchList: ['dns 后缀搜索列表'],
    dnsSuffix: ['连接特定的 dns 后缀'],
    mediaState: ['媒体状态'],
    description: ['描述'],
    mac: ['物理地址'],
    dhcpEnabled: ['dhcp 已启用'],
    autoconfig: ['自动配置已启用'],
    ipv4: ['ipv4 地址', 'ip 地址'],
    ipv4Auto: ['自动配置 ipv4 地址'],
    mask: ['子网掩码'],
    ipv6: ['ipv6 地址'],
    ipv6Temp: ['临时 ipv6 地址'],
    ipv6LinkLocal: ['本地链接 ipv6 地址'],
    gateways: ['默认网关'],
    dnsServers: ['dns 服务器'],
    netbios: ['tcpip 上的 netbios'],
    other: ['dhcp 服务器', '获得租约的时间', '租约过期的时间', 'dhcpv6 客户端 duid', '主 wins 服务器', '辅助 wins 服务器'],
  },
  ja: {
    hostName: ['ホスト名'],
    primaryDnsSuffix: ['プライマリ dns サフィックス'],
    nodeType: ['ノード タイプ'],
    ipRoutingEnabled: ['ip ルーティング有効'],
    winsProxyEnabled: ['wins プロキシ有効'],
    dnsSuffixSearchList: ['dns サフィックス検索一覧'],
    dnsSuffix: ['接続固有の dns サフィックス'],
    mediaState: ['メディアの状態'],
    description: ['説明'],
    mac: ['物理アドレス'],
    dhcpEnabled: ['dhcp 有効'],
    autoconfig: ['自動構成有効'],
    ipv4: ['ipv4 アドレス', 'ip アドレス'],
    ipv4Auto: ['自動構成 ipv4 アドレス'],
    mask: ['サブネット マスク'],
    ipv6: ['ipv6 アドレス'],
    ipv6Temp: ['一時 ipv6 アドレス'],
    ipv6LinkLocal: ['リンクローカル ipv6 アドレス'],
    gateways: ['デフォルト ゲートウェイ'],
    dnsServers: ['dns サーバー'],
    netbios: ['netbios over tcp/ip'],
    other: ['dhcp サーバー', 'リース取得', 'リースの有効期限', 'dhcpv6 クライアント duid', 'プライマリ wins サーバー', 'セカンダリ wins サーバー'],
  },
};

export const LANGUAGE_NAMES: Record<IpconfigLanguage, string> = {
  en: 'English', de: 'German', fr: 'French', es: 'Spanish', zh: 'Chinese (Simplified)', ja: 'Japanese', unknown: 'unknown',
};

const INDEX = new Map<string, { field: Field; langs: Lang[] }>();
for (const lang of Object.keys(TABLE) as Lang[]) {
  for (const [field, labels] of Object.entries(TABLE[lang]) as [Field, string[]][]) {
    for (const l of labels) {
      const key = normalizeLabel(l);
      const hit = INDEX.get(key);
      if (hit) { if (!hit.langs.includes(lang)) hit.langs.push(lang); }
      else INDEX.set(key, { field, langs: [lang] });
    }
  }
}

/** Label as printed → comparable key: lower case, NFC, no dotted leader, single spaces. */
export function normalizeLabel(label: string): string {
  return label.normalize('NFC').toLowerCase().replace(/[\s.]+$/, '').replace(/\s+/g, ' ').trim();
}

export function lookupLabel(label: string): { field: Field; langs: Lang[] } | null {
  const key = normalizeLabel(label);
  const hit = INDEX.get(key);
  if (hit) return hit;
  // `NetBIOS over Tcpip` has odd spellings across builds (and OCR damage in pasted copies).
  if (key.startsWith('netbios')) return { field: 'netbios', langs: [] };
  return null;
}

/** Status suffix words meaning Preferred. */
export function isPreferredStatus(s: string): boolean {
  return /^(preferred|bevorzugt|préféré|preferido|preferito|首选|優先)$/i.test(s.trim());
}

export function parseYesNo(s: string): boolean | undefined {
  const t = s.trim().toLowerCase();
  if (/^(yes|ja|oui|sí|si|true|是|はい)$/.test(t)) return true;
  if (/^(no|nein|non|false|否|いいえ)$/.test(t)) return false;
  return undefined;
}

export function isDisconnectedState(s: string): boolean {
  return /disconnected|getrennt|déconnecté|desconectado|断开|接続されていません/i.test(s);
}

const KIND_MAP: Record<string, string> = {
  ethernet: 'Ethernet', tunnel: 'Tunnel', 'túnel': 'Tunnel',
  unknown: 'Unknown', unbekannter: 'Unknown', inconnue: 'Unknown', desconocido: 'Unknown',
  'wireless lan': 'Wireless LAN', 'drahtlos-lan': 'Wireless LAN', 'réseau sans fil': 'Wireless LAN', 'lan inalámbrica': 'Wireless LAN',
  ppp: 'PPP',
  以太网: 'Ethernet', 无线局域网: 'Wireless LAN', 隧道: 'Tunnel', 未知: 'Unknown',
  イーサネット: 'Ethernet', ワイヤレス: 'Wireless LAN', トンネル: 'Tunnel',
};

export function normalizeKind(kind: string): string {
  return KIND_MAP[kind.trim().toLowerCase()] ?? kind.trim();
}

/** Adapter kinds that French and Spanish put between `Carte`/`Adaptador de` and the name. */
export const ROMANCE_KINDS = ['réseau sans fil', 'lan inalámbrica', 'ethernet', 'tunnel', 'túnel', 'inconnue', 'desconocido', 'ppp'];
