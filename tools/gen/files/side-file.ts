// What a side-file writer returns, and the JSON layout the plugins' installers use.

export interface SideFile {
  path: string;
  text: string;
}

/** JSON as the installers write it: four spaces, a final newline. */
export const j4 = (v: unknown) => JSON.stringify(v, null, 4) + '\n';
