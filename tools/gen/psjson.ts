// Windows PowerShell 5.1 `ConvertTo-Json` layout: `"key":  value` (two spaces), containers opened
// where the value starts, children indented 4 columns past the opener, closers aligned under the
// opener, empty containers as opener / blank line / closer, and ' < > & escaped as \u0027 \u003c
// \u003e \u0026 (JavaScriptSerializer). One pipeline object is written bare, several as an array.

/** A number written verbatim (FILETIME-sized integers do not fit in a double). */
export class Raw {
  constructor(readonly text: string) {}
}

export type PsValue = string | number | boolean | null | undefined | Raw | PsValue[] | { [k: string]: PsValue };

const SPACES = ' '.repeat(256);
const pad = (n: number) => (n <= 256 ? SPACES.slice(0, n) : ' '.repeat(n));

export function psString(s: string): string {
  return JSON.stringify(s).replace(/'/g, '\\u0027').replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function render(v: PsValue, col: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return psString(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) {
    if (v.length === 0) return `[\n\n${pad(col)}]`;
    const inner = pad(col + 4);
    return `[\n${v.map((x) => inner + render(x, col + 4)).join(',\n')}\n${pad(col)}]`;
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  if (keys.length === 0) return `{\n\n${pad(col)}}`;
  const inner = pad(col + 4);
  const parts = keys.map((k) => {
    const head = `${psString(k)}:  `;
    return inner + head + render(v[k], col + 4 + head.length);
  });
  return `{\n${parts.join(',\n')}\n${pad(col)}}`;
}

/** ConvertTo-Json of one value (LF line ends, no trailing newline). */
export function psJson(v: PsValue): string {
  return render(v, 0);
}

/** `objects | ConvertTo-Json`: nothing for none, bare object for one, array for several; with the final newline Out-File adds. */
export function psJsonPipeline(objects: PsValue[]): string {
  if (objects.length === 0) return '';
  return (objects.length === 1 ? psJson(objects[0]) : psJson(objects)) + '\n';
}
