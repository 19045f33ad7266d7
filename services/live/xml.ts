// A small, namespace-agnostic XML reader for SOAP and CLIXML: elements by local name, attributes by
// local name, text with entities decoded. No DTDs (a DOCTYPE is refused), no external anything.

export interface XmlElement { name: string; prefix: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

export class XmlError extends Error {}

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e];
  });
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const localName = (q: string) => { const i = q.indexOf(':'); return i >= 0 ? q.slice(i + 1) : q; };

export function parseXml(src: string): XmlElement {
  const root: XmlElement = { name: '#document', prefix: '', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const lt = src.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) stack[stack.length - 1].text += decodeEntities(src.slice(i, textEnd));
    if (lt < 0) break;
    if (src.startsWith('<?', lt)) { const e = src.indexOf('?>', lt); if (e < 0) throw new XmlError('unterminated processing instruction'); i = e + 2; continue; }
    if (src.startsWith('<!--', lt)) { const e = src.indexOf('-->', lt); if (e < 0) throw new XmlError('unterminated comment'); i = e + 3; continue; }
    if (src.startsWith('<![CDATA[', lt)) {
      const e = src.indexOf(']]>', lt); if (e < 0) throw new XmlError('unterminated CDATA');
      stack[stack.length - 1].text += src.slice(lt + 9, e); i = e + 3; continue;
    }
    if (src.startsWith('<!', lt)) throw new XmlError('DOCTYPE and declarations are not accepted');
    const gt = findTagEnd(src, lt);
    if (src[lt + 1] === '/') {
      const name = src.slice(lt + 2, gt).trim();
      const top = stack.pop();
      if (!top || top === root || (top.prefix ? `${top.prefix}:${top.name}` : top.name) !== name) throw new XmlError(`mismatched closing tag </${name}>`);
      i = gt + 1; continue;
    }
    const selfClose = src[gt - 1] === '/';
    const inner = src.slice(lt + 1, selfClose ? gt - 1 : gt);
    const m = /^([^\s/>]+)/.exec(inner);
    if (!m) throw new XmlError('malformed tag');
    const qname = m[1];
    const el: XmlElement = { name: localName(qname), prefix: qname.includes(':') ? qname.slice(0, qname.indexOf(':')) : '', attrs: {}, children: [], text: '' };
    const attrRe = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
    let a: RegExpExecArray | null;
    const rest = inner.slice(qname.length);
    while ((a = attrRe.exec(rest))) el.attrs[localName(a[1])] = decodeEntities(a[3] ?? a[4] ?? '');
    stack[stack.length - 1].children.push(el);
    if (!selfClose) stack.push(el);
    i = gt + 1;
  }
  if (stack.length !== 1) throw new XmlError(`unclosed element <${stack[stack.length - 1].name}>`);
  const top = root.children[0];
  if (!top) throw new XmlError('no root element');
  return top;
}

function findTagEnd(src: string, from: number): number {
  let q: string | null = null;
  for (let i = from + 1; i < src.length; i++) {
    const c = src[i];
    if (q) { if (c === q) q = null; } else if (c === '"' || c === "'") q = c; else if (c === '>') return i;
  }
  throw new XmlError('unterminated tag');
}

/** First descendant (depth-first, including `el` itself) with this local name. */
export function find(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  if (el.name === name) return el;
  for (const c of el.children) { const f = find(c, name); if (f) return f; }
  return undefined;
}

export function findAll(el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] {
  if (!el) return out;
  if (el.name === name) out.push(el);
  for (const c of el.children) findAll(c, name, out);
  return out;
}

/** Follows a path of child local names. */
export function child(el: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let cur = el;
  for (const p of path) cur = cur?.children.find((c) => c.name === p);
  return cur;
}
