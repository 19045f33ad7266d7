// A collection that is killed mid-write leaves the last JSON element cut anywhere — inside a string,
// after a key, in a nested array. Rather than lose the element (often the one the user is looking
// for), keep every member that was complete: cut back to the last comma outside strings and close
// the brackets still open there.

export interface Salvaged {
  json: string;
  /** Offset in the original text up to which members were kept. */
  keptTo: number;
}

export function salvageTruncated(text: string, s: number, e: number): Salvaged | undefined {
  const stack: number[] = [];
  let inString = false;
  let lastComma = -1;
  let stackAtComma = '';
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash escapes the next char
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) stack.push(c);
    else if (c === 125 || c === 93) stack.pop();
    else if (c === 44 && stack.length > 0) {
      lastComma = i;
      stackAtComma = String.fromCharCode(...stack);
    }
  }
  if (lastComma < 0 || stackAtComma.length === 0) return undefined;
  let closers = '';
  for (let k = stackAtComma.length - 1; k >= 0; k--) closers += stackAtComma.charCodeAt(k) === 123 ? '}' : ']';
  // The text may end right after a complete last value (`"168.63.129.16"` with the `]` cut off):
  // keep it too.
  if (!inString && String.fromCharCode(...stack) === stackAtComma) {
    const tail = text.slice(lastComma + 1, e).trim();
    // A number at the very end may itself be cut (`24` → `2`); only a line break after it proves it whole.
    const endsLine = /\s$/.test(text.slice(s, e));
    const scalar = endsLine ? /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/ : /^(?:"(?:[^"\\]|\\.)*"|true|false|null)$/;
    const inObject = stackAtComma.charCodeAt(stackAtComma.length - 1) === 123;
    const member = /^("(?:[^"\\]|\\.)*")\s*:\s*(.*)$/s.exec(tail);
    if (tail !== '' && (inObject ? member !== null && scalar.test((member[2] ?? '').trim()) : scalar.test(tail))) {
      const end = text.lastIndexOf(tail.charAt(tail.length - 1), e - 1) + 1;
      return { json: text.slice(s, end) + closers, keptTo: end };
    }
  }
  return { json: text.slice(s, lastComma) + closers, keptTo: lastComma };
}
