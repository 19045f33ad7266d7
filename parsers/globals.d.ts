// The pure layers compile with lib ES2022 and no ambient types, so the one web-platform API they use
// is declared here. TextDecoder (WHATWG Encoding) is a global in Node, browsers and workers alike.
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
