export { parseIpconfig, parseIpconfigLines } from './ipconfig.ts';
export { parseIpTxt, findNetIpAddressStart, findNetIpInterfaceStart } from './ip-txt.ts';
export type { IpTxtResult } from './ip-txt.ts';
export type { NetIpAddress, NetIpInterface } from './net-ip.ts';
export type { Adapter, Compartment, IpconfigLanguage, IpconfigResult, Ipv4Entry, Ipv6Entry } from './types.ts';
