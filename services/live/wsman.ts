// WS-Management remote shell messages (MS-WSMV): request envelopes for the client, response envelopes
// for the test server, and namespace-agnostic parsing of both. Pure.
import { escapeXml, child, find, findAll, parseXml, type XmlElement } from './xml.ts';
import { fromBase64, toBase64 } from './bytes.ts';

export const NS = {
  s: 'http://www.w3.org/2003/05/soap-envelope',
  a: 'http://schemas.xmlsoap.org/ws/2004/08/addressing',
  w: 'http://schemas.dmtf.org/wbem/wsman/1/wsman.xsd',
  p: 'http://schemas.microsoft.com/wbem/wsman/1/wsman.xsd',
  rsp: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell',
  x: 'http://schemas.xmlsoap.org/ws/2004/09/transfer',
  f: 'http://schemas.microsoft.com/wbem/wsman/1/wsmanfault',
} as const;

export const ACTION = {
  create: 'http://schemas.xmlsoap.org/ws/2004/09/transfer/Create',
  delete: 'http://schemas.xmlsoap.org/ws/2004/09/transfer/Delete',
  command: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/Command',
  receive: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/Receive',
  send: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/Send',
  signal: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/Signal',
} as const;
export const RESPONSE_ACTION: Record<string, string> = {
  [ACTION.create]: `${ACTION.create}Response`, [ACTION.delete]: `${ACTION.delete}Response`,
  [ACTION.command]: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/CommandResponse',
  [ACTION.receive]: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/ReceiveResponse',
  [ACTION.send]: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/SendResponse',
  [ACTION.signal]: 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/SignalResponse',
};
export const RESOURCE_CMD = 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/cmd';
export const SIGNAL_TERMINATE = 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/signal/terminate';
export const STATE_DONE = 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/CommandState/Done';
export const STATE_RUNNING = 'http://schemas.microsoft.com/wbem/wsman/1/windows/shell/CommandState/Running';
export const FAULT_TIMED_OUT = 2150858793; // 0x80338029: no output within OperationTimeout; retry
export const FAULT_SHELL_NOT_FOUND = 2150858843; // the shell is gone: reopen
export const FAULTS_REOPEN = [2150858843, 2150859174, 2147943418];

export interface RequestOptions {
  to: string; action: string; messageId: string; operationTimeoutSec?: number; shellId?: string;
  options?: Record<string, string>; body?: string; maxEnvelopeSize?: number;
}

export function envelope(r: RequestOptions): string {
  const opts = r.options
    ? `<w:OptionSet>${Object.entries(r.options).map(([k, v]) => `<w:Option Name="${escapeXml(k)}">${escapeXml(v)}</w:Option>`).join('')}</w:OptionSet>`
    : '';
  const sel = r.shellId ? `<w:SelectorSet><w:Selector Name="ShellId">${escapeXml(r.shellId)}</w:Selector></w:SelectorSet>` : '';
  return `<?xml version="1.0" encoding="utf-8"?>` +
    `<env:Envelope xmlns:env="${NS.s}" xmlns:a="${NS.a}" xmlns:w="${NS.w}" xmlns:p="${NS.p}" xmlns:rsp="${NS.rsp}">` +
    `<env:Header>` +
    `<a:To>${escapeXml(r.to)}</a:To>` +
    `<a:ReplyTo><a:Address mustUnderstand="true">http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous</a:Address></a:ReplyTo>` +
    `<w:MaxEnvelopeSize mustUnderstand="true">${r.maxEnvelopeSize ?? 153600}</w:MaxEnvelopeSize>` +
    `<a:MessageID>${escapeXml(r.messageId)}</a:MessageID>` +
    `<w:Locale mustUnderstand="false" xml:lang="en-US"/><p:DataLocale mustUnderstand="false" xml:lang="en-US"/>` +
    `<w:OperationTimeout>PT${r.operationTimeoutSec ?? 20}S</w:OperationTimeout>` +
    `<w:ResourceURI mustUnderstand="true">${RESOURCE_CMD}</w:ResourceURI>` +
    `<a:Action mustUnderstand="true">${r.action}</a:Action>` +
    sel + opts +
    `</env:Header><env:Body>${r.body ?? ''}</env:Body></env:Envelope>`;
}

export const createShellBody = (codepage = 65001) => ({
  options: { WINRS_NOPROFILE: 'FALSE', WINRS_CODEPAGE: String(codepage) },
  body: `<rsp:Shell><rsp:InputStreams>stdin</rsp:InputStreams><rsp:OutputStreams>stdout stderr</rsp:OutputStreams></rsp:Shell>`,
});
export const commandBody = (command: string, args: string[] = [], skipCmdShell = true) => ({
  options: { WINRS_CONSOLEMODE_STDIN: 'TRUE', WINRS_SKIP_CMD_SHELL: skipCmdShell ? 'TRUE' : 'FALSE' },
  body: `<rsp:CommandLine><rsp:Command>${escapeXml(command)}</rsp:Command>${args.length ? `<rsp:Arguments>${escapeXml(args.join(' '))}</rsp:Arguments>` : ''}</rsp:CommandLine>`,
});
export const receiveBody = (commandId: string) => `<rsp:Receive><rsp:DesiredStream CommandId="${escapeXml(commandId)}">stdout stderr</rsp:DesiredStream></rsp:Receive>`;
export const signalBody = (commandId: string, code = SIGNAL_TERMINATE) => `<rsp:Signal CommandId="${escapeXml(commandId)}"><rsp:Code>${code}</rsp:Code></rsp:Signal>`;

// ---- parsing (both sides) ----
export interface ParsedMessage { root: XmlElement; action: string; messageId: string; relatesTo: string; shellId: string | undefined; options: Record<string, string>; body: XmlElement | undefined }

export function parseMessage(xml: string): ParsedMessage {
  const root = parseXml(xml);
  if (root.name !== 'Envelope') throw new Error(`not a SOAP envelope (<${root.name}>)`);
  const header = child(root, 'Header');
  const options: Record<string, string> = {};
  for (const o of findAll(child(header, 'OptionSet'), 'Option')) options[o.attrs.Name] = o.text.trim();
  const sel = findAll(header, 'Selector').find((s) => s.attrs.Name === 'ShellId');
  return {
    root, options,
    action: child(header, 'Action')?.text.trim() ?? '',
    messageId: child(header, 'MessageID')?.text.trim() ?? '',
    relatesTo: child(header, 'RelatesTo')?.text.trim() ?? '',
    shellId: sel?.text.trim(),
    body: child(root, 'Body'),
  };
}

export interface WsmanFault { code: string; subcode: string; reason: string; wsmanCode: number | null; message: string }

export function parseFault(m: ParsedMessage): WsmanFault | null {
  const fault = child(m.body, 'Fault');
  if (!fault) return null;
  const code = find(child(fault, 'Code'), 'Value')?.text.trim() ?? '';
  const subcode = find(child(child(fault, 'Code'), 'Subcode'), 'Value')?.text.trim() ?? '';
  const reason = find(child(fault, 'Reason'), 'Text')?.text.trim() ?? '';
  const wf = find(child(fault, 'Detail'), 'WSManFault');
  const wsmanCode = wf?.attrs.Code ? Number(wf.attrs.Code) : null;
  const message = find(wf, 'Message')?.text.trim() ?? '';
  return { code, subcode, reason, wsmanCode, message };
}

export function shellIdFromCreate(m: ParsedMessage): string {
  const sel = findAll(m.body, 'Selector').find((s) => s.attrs.Name === 'ShellId');
  const id = sel?.text.trim() || find(m.body, 'ShellId')?.text.trim();
  if (!id) throw new Error('Create response carries no ShellId');
  return id;
}

export function commandIdFromResponse(m: ParsedMessage): string {
  const id = find(m.body, 'CommandId')?.text.trim();
  if (!id) throw new Error('Command response carries no CommandId');
  return id;
}

export interface ReceiveChunk { stdout: Uint8Array[]; stderr: Uint8Array[]; done: boolean; exitCode: number | null }

export function parseReceive(m: ParsedMessage): ReceiveChunk {
  const resp = find(m.body, 'ReceiveResponse');
  if (!resp) throw new Error('not a ReceiveResponse');
  const out: ReceiveChunk = { stdout: [], stderr: [], done: false, exitCode: null };
  for (const s of findAll(resp, 'Stream')) {
    const text = s.text.trim();
    if (!text) continue;
    (s.attrs.Name === 'stderr' ? out.stderr : out.stdout).push(fromBase64(text));
  }
  const state = find(resp, 'CommandState');
  if (state && /\/Done$/.test(state.attrs.State ?? '')) {
    out.done = true;
    const ec = find(state, 'ExitCode')?.text.trim();
    out.exitCode = ec !== undefined && ec !== '' ? Number(ec) : 0;
  }
  return out;
}

// ---- server-side response builders ----
export function responseEnvelope(action: string, relatesTo: string, messageId: string, body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>` +
    `<s:Envelope xml:lang="en-US" xmlns:s="${NS.s}" xmlns:a="${NS.a}" xmlns:x="${NS.x}" xmlns:w="${NS.w}" xmlns:rsp="${NS.rsp}" xmlns:p="${NS.p}">` +
    `<s:Header><a:Action>${action}</a:Action><a:MessageID>${escapeXml(messageId)}</a:MessageID>` +
    `<a:To>http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous</a:To><a:RelatesTo>${escapeXml(relatesTo)}</a:RelatesTo></s:Header>` +
    `<s:Body>${body}</s:Body></s:Envelope>`;
}

export const createResponseBody = (to: string, shellId: string) =>
  `<x:ResourceCreated><a:Address>${escapeXml(to)}</a:Address><a:ReferenceParameters><w:ResourceURI>${RESOURCE_CMD}</w:ResourceURI>` +
  `<w:SelectorSet><w:Selector Name="ShellId">${escapeXml(shellId)}</w:Selector></w:SelectorSet></a:ReferenceParameters></x:ResourceCreated>` +
  `<rsp:Shell><rsp:ShellId>${escapeXml(shellId)}</rsp:ShellId><rsp:ResourceUri>${RESOURCE_CMD}</rsp:ResourceUri><rsp:InputStreams>stdin</rsp:InputStreams><rsp:OutputStreams>stdout stderr</rsp:OutputStreams></rsp:Shell>`;
export const commandResponseBody = (commandId: string) => `<rsp:CommandResponse><rsp:CommandId>${escapeXml(commandId)}</rsp:CommandId></rsp:CommandResponse>`;
export function receiveResponseBody(commandId: string, chunks: { stream: 'stdout' | 'stderr'; data: Uint8Array; end?: boolean }[], exitCode: number | null): string {
  const id = escapeXml(commandId);
  const streams = chunks.map((c) => `<rsp:Stream Name="${c.stream}" CommandId="${id}"${c.end ? ' End="true"' : ''}>${toBase64(c.data)}</rsp:Stream>`).join('');
  const state = exitCode === null
    ? `<rsp:CommandState CommandId="${id}" State="${STATE_RUNNING}"/>`
    : `<rsp:CommandState CommandId="${id}" State="${STATE_DONE}"><rsp:ExitCode>${exitCode}</rsp:ExitCode></rsp:CommandState>`;
  return `<rsp:ReceiveResponse>${streams}${state}</rsp:ReceiveResponse>`;
}
export const signalResponseBody = () => `<rsp:SignalResponse/>`;

export function faultBody(wsmanCode: number, reason: string, subcode = 'w:InternalError'): string {
  return `<s:Fault><s:Code><s:Value>s:Receiver</s:Value><s:Subcode><s:Value>${subcode}</s:Value></s:Subcode></s:Code>` +
    `<s:Reason><s:Text xml:lang="en-US">${escapeXml(reason)}</s:Text></s:Reason>` +
    `<s:Detail><f:WSManFault xmlns:f="${NS.f}" Code="${wsmanCode}" Machine="winnode"><f:Message>${escapeXml(reason)}</f:Message></f:WSManFault></s:Detail></s:Fault>`;
}
export const FAULT_ACTION = 'http://schemas.dmtf.org/wbem/wsman/1/wsman/fault';

// ---- PowerShell ----
/** `powershell -NoProfile -NonInteractive -EncodedCommand <b64 UTF-16LE>` as (command, args). */
export function powershellCommand(script: string): { command: string; args: string[] } {
  const u = new Uint8Array(script.length * 2);
  for (let i = 0; i < script.length; i++) { const c = script.charCodeAt(i); u[i * 2] = c & 0xff; u[i * 2 + 1] = c >> 8; }
  return { command: 'powershell.exe', args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', toBase64(u)] };
}

/** The prologue every script gets: UTF-8 output without BOM, no progress records, wide formatting. */
export const PS_PROLOGUE = "$ProgressPreference='SilentlyContinue';[Console]::OutputEncoding=[Text.UTF8Encoding]::new($false);$OutputEncoding=[Text.UTF8Encoding]::new($false);";

/** Reverses `powershellCommand` (used by the test server and the fake powershell). */
export function decodeEncodedCommand(commandLine: string): string | null {
  const m = /-(?:EncodedCommand|enc|e|ec|encodedcommand)\s+([A-Za-z0-9+/=]+)/i.exec(commandLine);
  if (!m) return null;
  const b = fromBase64(m[1]);
  let s = '';
  for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode(b[i] | (b[i + 1] << 8));
  return s;
}
