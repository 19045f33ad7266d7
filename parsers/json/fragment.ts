// A piece of JSON cut out of the middle of a document, as people paste it: it starts inside some
// object (even inside a key), closes containers it never opened, and ends anywhere. Every time the
// text closes a container it did not open, what follows (up to the next such closer) is the rest of
// the enclosing container: its remaining members, whose opening we never saw. Each such run is read
// as a partial object (or the remaining items of an array), so the network whose `"ID"` was cut off
// still gives its `"Subnets"` and `"Type"`.
//
// Sources: corpus hns-v1-rest-json-wrapped__microsoft-SDN-issue-269 (starts inside the key
// "ManagementPort" of an allocator, ends after the envelope's `"Success":true}`);
// hns-loadbalancer-json-and-vfp-rule-fragment__kubernetes-kubernetes-pr-115344 (two members of a
// load balancer, then other text).

import { startsInsideString } from './unwrap.ts';
import { LineIndex } from './line-index.ts';
import { salvageTruncated } from './salvage.ts';

export interface FragmentObject {
  value: Record<string, unknown>;
  /** 1-based lines the members were read from. */
  line: number;
  endLine: number;
  /** How many containers up from where the fragment starts (0: the one it starts in). */
  level: number;
}

export interface JsonFragment {
  objects: FragmentObject[];
  /** 1-based line where JSON-looking text stopped (other text follows), or 0 when it ran to the end. */
  stoppedAt: number;
}

const MEMBER = /"[^"\r\n]{1,200}"\s*:/;
const MEMBER_AT_START = /^"[^"\r\n]{1,200}"\s*:/;

interface Run {
  from: number;
  to: number;
  level: number;
}

/** Reads a fragment; objects come innermost first. Never throws. */
export function readJsonFragment(text: string, maxChars = 4 << 20): JsonFragment {
  const out: JsonFragment = { objects: [], stoppedAt: 0 };
  const n = Math.min(text.length, maxChars);
  const li = new LineIndex(text);
  // Where the first member begins; a fragment that starts inside a string skips to after it.
  let start = 0;
  let inString = startsInsideString(text.slice(0, Math.min(n, 400)).split(/\r?\n/)[0] ?? '');
  if (!inString) {
    const m = MEMBER.exec(text.slice(0, Math.min(n, 4096)));
    if (!m) return out;
    start = m.index;
  }
  const runs: Run[] = [];
  let depth = 0;
  let level = 0;
  let runFrom = start;
  let escape = false;
  let i = start;
  let stopped = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escape) escape = false;
      else if (c === 92) escape = true;
      else if (c === 34 || c === 10 || c === 13) inString = false; // a string never spans lines
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
      else {
        runs.push({ from: runFrom, to: i, level });
        level++;
        runFrom = i + 1;
      }
    } else if (depth === 0 && c !== 44 && c !== 58 && c !== 32 && c !== 9 && c !== 10 && c !== 13) {
      // At the top level only members and literals may follow; anything else is other text.
      const lit = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 40));
      if (!lit) {
        stopped = i;
        break;
      }
      i += lit[0].length - 1;
    }
  }
  runs.push({ from: runFrom, to: stopped >= 0 ? stopped : i, level });
  if (stopped >= 0) out.stoppedAt = li.lineOf(stopped);

  for (const r of runs) {
    const raw = text.slice(r.from, r.to);
    const lead = raw.length - raw.replace(/^[\s,]+/, '').length;
    const body = raw.slice(lead).replace(/[\s,]+$/, '');
    if (body === '') continue;
    const line = li.lineOf(r.from + lead);
    const endLine = li.lineOf(Math.max(r.from, r.to - 1));
    const last = r === runs[runs.length - 1];
    const obj = readBody(body, last, r === runs[0]);
    if (obj) {
      out.objects.push({ value: obj, line, endLine, level: r.level });
      continue;
    }
    const arr = tryParse(`[${body}]`);
    if (Array.isArray(arr)) {
      for (const item of arr) if (isPlainObject(item)) out.objects.push({ value: item, line, endLine, level: r.level - 1 });
    }
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Members of an object whose braces are not in the text. The first run may start inside a value,
 * so on failure it is retried from each later member boundary; the last run may be cut, so its
 * complete members are kept.
 */
function readBody(body: string, last: boolean, first: boolean): Record<string, unknown> | undefined {
  let b = body;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (MEMBER_AT_START.test(b)) {
      const whole = tryParse(`{${b}}`);
      if (isPlainObject(whole)) return whole;
      if (last) {
        const sv = salvageTruncated(`{${b}`, 0, b.length + 1);
        const kept = sv ? tryParse(sv.json) : undefined;
        if (isPlainObject(kept) && Object.keys(kept).length > 0) return kept;
      }
    }
    if (!first) return undefined;
    const next = /,\s*"[^"\r\n]{1,200}"\s*:/.exec(b.slice(1));
    if (!next) return undefined;
    b = b.slice(next.index + 1).replace(/^[\s,]+/, '');
  }
  return undefined;
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
