// Names every JavaScript object answers to (own properties of Object.prototype). A parser that
// looks a word from a file up in a plain object finds these even when the file never defined them,
// or loses the value when it stores one under them: the parser robustness tests feed each name where
// a file's own word goes (a CNI plugin type, a VFP protocol name, a PowerShell list key).
export const OBJECT_MEMBER_NAMES = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'] as const;
