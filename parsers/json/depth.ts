// Nesting depth of parsed JSON, capped. ConvertTo-Json writes at most 100 levels (its -Depth limit),
// so deeper nesting is not PowerShell output; and every consumer that walks a value recursively
// (JSON.stringify included) overflows the stack on a value nested tens of thousands of levels deep,
// which a hostile file builds with a few KB of brackets. Walked with an explicit stack: no recursion.

/** Deepest nesting kept; ConvertTo-Json's own maximum, with room for the collectors' wrappers. */
export const MAX_JSON_DEPTH = 128;

/** Replaces every object or array nested deeper than `max` by a marker string; true when any was. */
export function capDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  let cut = false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const obj = v as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      const child = obj[k];
      if (child === null || typeof child !== 'object') continue;
      if (depth >= max) {
        obj[k] = '(nested too deep: not read)';
        cut = true;
      } else stack.push([child, depth + 1]);
    }
  }
  return cut;
}
