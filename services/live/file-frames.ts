// How one collection command hands back several files (logs, a CNI config folder) over a channel that
// carries only stdout (WinRM, SSH, a child powershell): each file as a frame of text lines
//
//   #hnsight-file <relative/name.log>
//   <the file's bytes in base64, any line breaks>
//   #hnsight-end
//
// Base64 keeps the bytes exact (a UTF-16 log stays UTF-16, nothing is re-encoded by the console).
// A frame without its end line (the command timed out mid-file) is dropped and named. The same
// reading is done in PowerShell by the node script (node-script.ts); names are checked the same way
// on both sides, so no frame can write outside the command's folder.

export const FRAME_START = '#hnsight-file ';
export const FRAME_END = '#hnsight-end';

/** Relative, forward slashes, no `.`/`..` segment, only letters, digits, `.`, `_`, `-` per segment. */
export const SAFE_NAME = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

export function isSafeFrameName(name: string): boolean {
  return SAFE_NAME.test(name) && !name.split('/').some((s) => s === '.' || s === '..') && name.length <= 240;
}

export interface FramedFile {
  name: string;
  bytes: Uint8Array;
}

export interface FrameRead {
  files: FramedFile[];
  /** A frame whose end never came (the output was cut): its name. */
  cut?: string;
  /** Names refused as unsafe. */
  refused: string[];
}

/** Reads the frames of a multi-file command's stdout (UTF-8/ASCII text). Text outside frames is ignored. */
export function readFrames(stdout: Uint8Array): FrameRead {
  const text = new TextDecoder('utf-8').decode(stdout);
  const out: FrameRead = { files: [], refused: [] };
  let name: string | null = null;
  let b64: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\uFEFF/, '');
    if (line.startsWith(FRAME_START)) {
      if (name !== null) out.cut = name;
      name = line.slice(FRAME_START.length).trim();
      b64 = [];
      continue;
    }
    if (line.trim() === FRAME_END && name !== null) {
      if (!isSafeFrameName(name)) out.refused.push(name);
      else out.files.push({ name, bytes: new Uint8Array(Buffer.from(b64.join(''), 'base64')) });
      name = null;
      continue;
    }
    if (name !== null) b64.push(line.trim());
  }
  if (name !== null) out.cut = name;
  return out;
}

/** The frames for `files` (test servers answer multi-file commands with this). */
export function writeFrames(files: readonly FramedFile[]): Uint8Array {
  let s = '';
  for (const f of files) {
    s += `${FRAME_START}${f.name}\r\n`;
    const b = Buffer.from(f.bytes).toString('base64');
    for (let i = 0; i < b.length; i += 76) s += b.slice(i, i + 76) + '\r\n';
    s += `${FRAME_END}\r\n`;
  }
  return new Uint8Array(Buffer.from(s, 'utf8'));
}
