// PowerShell writes its error, warning, verbose and progress streams to stderr as CLIXML when run by a
// non-console host (`#< CLIXML` then `<Objs …>`). Decode it to plain text: error/warning/verbose/debug/info
// lines kept (prefixed by their stream name except errors), progress records dropped.
import { findAll, parseXml, type XmlElement } from './xml.ts';

/** `_x000D__x000A_` → CR LF (PowerShell's XmlConvert-style escape for characters XML cannot carry). */
export function decodePsEscapes(s: string): string {
  return s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export function decodeClixml(stderr: string): string {
  const marker = '#< CLIXML';
  const at = stderr.indexOf(marker);
  if (at < 0) return stderr;
  let out = stderr.slice(0, at);
  let rest = stderr.slice(at + marker.length);
  while (rest.length) {
    const start = rest.indexOf('<Objs');
    if (start < 0) { out += rest; break; }
    const end = rest.indexOf('</Objs>', start);
    const xml = end < 0 ? rest.slice(start) : rest.slice(start, end + 7);
    rest = end < 0 ? '' : rest.slice(end + 7);
    try {
      out += renderObjs(parseXml(xml));
    } catch {
      out += xml; // keep what we could not read rather than losing it
    }
    const next = rest.indexOf(marker);
    if (next >= 0) { out += rest.slice(0, next).trim() ? rest.slice(0, next) : ''; rest = rest.slice(next + marker.length); } else { out += rest.trim() ? rest : ''; rest = ''; }
  }
  return out.replace(/^\s+/, '');
}

function renderObjs(objs: XmlElement): string {
  let out = '';
  for (const c of objs.children) {
    if (c.name === 'S') {
      const stream = c.attrs.S ?? '';
      const text = decodePsEscapes(c.text);
      if (stream === 'Error' || stream === '') out += text;
      else out += `${stream.toUpperCase()}: ${text}`;
    } else if (c.name === 'Obj' && (c.attrs.S ?? '').toLowerCase() === 'progress') {
      continue;
    } else if (c.name === 'Obj') {
      // An ErrorRecord object: take its ToString.
      const ts = findAll(c, 'ToString')[0];
      if (ts) out += `${decodePsEscapes(ts.text)}\r\n`;
    }
  }
  return out;
}
