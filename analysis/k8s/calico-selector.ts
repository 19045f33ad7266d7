// Calico's selector expression language, read and evaluated as Calico does (projectcalico/calico
// libcalico-go/lib/selector/tokenizer/tokenizer.go and parser/parser.go, parser/ast.go):
//   all()  global()  has(k)  k == 'v'  k != 'v'  k in {'a', 'b'}  k not in {...}
//   k contains 's'  k starts with 's'  k ends with 's'  !expr  expr && expr  expr || expr  ( expr )
// `||` binds loosest, then `&&`; any number of leading `!` negate one operation; strings are in single
// or double quotes (no escapes); a label key is [a-zA-Z0-9_./-]+; an empty selector is all().
// `k != 'v'` and `k not in {...}` hold when k is absent (ast.go LabelNeValueNode, LabelNotInSetNode).
// global() holds for resources outside any namespace (never for a pod).
//
// Evaluation is three-valued: a label whose value the snapshot does not know (a namespace label
// without the Namespace objects, a service account's labels) makes the answer "unknown" with the
// reason, unless the rest of the expression decides it anyway (false && unknown = false).

export type SelectorNode =
  | { op: 'all' }
  | { op: 'global' }
  | { op: 'has'; key: string }
  | { op: 'eq' | 'ne' | 'contains' | 'starts' | 'ends'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'not'; node: SelectorNode }
  | { op: 'and' | 'or'; nodes: SelectorNode[] };

/** Longest selector read, and deepest nesting: beyond, the selector is reported as not readable. */
const MAX_LEN = 20_000;
const MAX_DEPTH = 200;

type Tok = { k: 'label' | 'str'; v: string } | { k: '(' | ')' | '{' | '}' | ',' | '==' | '!=' | '!' | '&&' | '||' | 'in' | 'notin' | 'contains' | 'starts' | 'ends' | 'all' | 'global' | 'eof' } | { k: 'has'; v: string };

const LABEL = /^[a-zA-Z0-9_./-]+/;

function tokenize(s: string): Tok[] | string {
  const out: Tok[] = [];
  let i = 0;
  const rest = () => s.slice(i);
  while (true) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i >= s.length) { out.push({ k: 'eof' }); return out; }
    const c = s[i] ?? '';
    const prev = out[out.length - 1];
    if ('(){},'.includes(c)) { out.push({ k: c as '(' }); i++; continue; }
    if (c === '"' || c === "'") {
      const end = s.indexOf(c, i + 1);
      if (end < 0) return 'unterminated string';
      out.push({ k: 'str', v: s.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const two = s.slice(i, i + 2);
    if (two === '==' || two === '!=' || two === '&&' || two === '||') { out.push({ k: two }); i += 2; continue; }
    if (c === '!') { out.push({ k: '!' }); i++; continue; }
    if (c === '=' || c === '&' || c === '|') return `expected ${c}${c}`;
    // After a label, only an operator word may follow (the tokenizer's lastTokKind == TokLabel branch).
    if (prev?.k === 'label') {
      const m = /^(contains|starts\s*with|ends\s*with|not\s*in|in)/.exec(rest());
      if (!m?.[1]) return `unexpected characters after label '${prev.v}'`;
      const w = m[1];
      out.push({ k: w === 'contains' ? 'contains' : w.startsWith('starts') ? 'starts' : w.startsWith('ends') ? 'ends' : w.startsWith('not') ? 'notin' : 'in' });
      i += w.length;
      continue;
    }
    const fn = /^(has|all|global)\(\s*([a-zA-Z0-9_./-]*)\s*\)/.exec(rest());
    if (fn?.[1]) {
      const arg = fn[2] ?? '';
      if (fn[1] === 'has') { if (!arg) return 'no label name in has( expression'; out.push({ k: 'has', v: arg }); }
      else if (arg) return `no closing ')' after ${fn[1]}(`;
      else out.push({ k: fn[1] as 'all' | 'global' });
      i += fn[0].length;
      continue;
    }
    const id = LABEL.exec(rest());
    if (!id) return `unexpected character '${c}'`;
    out.push({ k: 'label', v: id[0] });
    i += id[0].length;
  }
}

class Parser {
  pos = 0;
  constructor(private toks: Tok[]) {}
  peek(): Tok { return this.toks[this.pos] ?? { k: 'eof' }; }
  next(): Tok { const t = this.peek(); this.pos++; return t; }
  or(depth: number): SelectorNode {
    if (depth > MAX_DEPTH) throw new Error('nested too deeply');
    const nodes = [this.and(depth)];
    while (this.peek().k === '||') { this.next(); nodes.push(this.and(depth)); }
    return nodes.length === 1 && nodes[0] ? nodes[0] : { op: 'or', nodes };
  }
  and(depth: number): SelectorNode {
    const nodes = [this.operation(depth)];
    while (this.peek().k === '&&') { this.next(); nodes.push(this.operation(depth)); }
    return nodes.length === 1 && nodes[0] ? nodes[0] : { op: 'and', nodes };
  }
  operation(depth: number): SelectorNode {
    let negated = false;
    while (this.peek().k === '!') { this.next(); negated = !negated; }
    const t = this.next();
    let node: SelectorNode;
    if (t.k === 'has') node = { op: 'has', key: t.v };
    else if (t.k === 'all' || t.k === 'global') node = { op: t.k };
    else if (t.k === '(') {
      node = this.or(depth + 1);
      if (this.next().k !== ')') throw new Error('expected )');
    } else if (t.k === 'label') {
      const op = this.next();
      if (op.k === '==' || op.k === '!=' || op.k === 'contains' || op.k === 'starts' || op.k === 'ends') {
        const v = this.next();
        if (v.k !== 'str') throw new Error('expected string');
        node = { op: op.k === '==' ? 'eq' : op.k === '!=' ? 'ne' : op.k, key: t.v, value: v.v };
      } else if (op.k === 'in' || op.k === 'notin') {
        if (this.next().k !== '{') throw new Error('expected set literal');
        const values: string[] = [];
        for (let v = this.peek(); v.k === 'str'; v = this.peek()) {
          this.next();
          values.push(v.v);
          if (this.peek().k !== ',') break;
          this.next();
        }
        if (this.next().k !== '}') throw new Error('expected }');
        node = { op: op.k, key: t.v, values };
      } else throw new Error(`expected == or != after ${t.v}`);
    } else throw new Error(t.k === 'eof' ? 'unexpected end of selector' : `unexpected ${t.k}`);
    return negated ? { op: 'not', node } : node;
  }
}

/** The selector's tree, or why it does not parse (Calico would reject it too). */
export function parseCalicoSelector(text: string): { ok: true; node: SelectorNode } | { ok: false; error: string } {
  if (text.length > MAX_LEN) return { ok: false, error: `longer than ${MAX_LEN} characters` };
  const toks = tokenize(text);
  if (typeof toks === 'string') return { ok: false, error: toks };
  if (toks[0]?.k === 'eof') return { ok: true, node: { op: 'all' } };
  const p = new Parser(toks);
  try {
    const node = p.or(0);
    if (p.peek().k !== 'eof') return { ok: false, error: 'unexpected content at end of selector' };
    return { ok: true, node };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** A label lookup: the value, undefined when absent, or `{ unknown }` when the snapshot cannot say. */
export type LabelLookup = (key: string) => string | undefined | { unknown: string };
/** true, false, or the reason the answer is not known. */
export type Tri = boolean | string;

const not = (a: Tri): Tri => (typeof a === 'string' ? a : !a);

/** Evaluates a selector over one resource's labels; `namespaced`: the resource is in a namespace (global() is false). */
export function evalSelector(n: SelectorNode, get: LabelLookup, namespaced = true): Tri {
  switch (n.op) {
    case 'all': return true;
    case 'global': return !namespaced;
    case 'not': return not(evalSelector(n.node, get, namespaced));
    case 'and': {
      let unknown: string | undefined;
      for (const c of n.nodes) {
        const r = evalSelector(c, get, namespaced);
        if (r === false) return false;
        if (typeof r === 'string') unknown ??= r;
      }
      return unknown ?? true;
    }
    case 'or': {
      let unknown: string | undefined;
      for (const c of n.nodes) {
        const r = evalSelector(c, get, namespaced);
        if (r === true) return true;
        if (typeof r === 'string') unknown ??= r;
      }
      return unknown ?? false;
    }
    default: {
      const v = get(n.key);
      if (typeof v === 'object') return v.unknown;
      switch (n.op) {
        case 'has': return v !== undefined;
        case 'eq': return v === n.value;
        case 'ne': return v !== n.value;
        case 'contains': return v !== undefined && v.includes(n.value);
        case 'starts': return v !== undefined && v.startsWith(n.value);
        case 'ends': return v !== undefined && v.endsWith(n.value);
        case 'in': return v !== undefined && n.values.includes(v);
        case 'notin': return v === undefined || !n.values.includes(v);
      }
    }
  }
}
