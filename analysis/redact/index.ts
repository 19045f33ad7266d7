export { Redactor, isMeaninglessIp, REDACTED_KINDS, type RedactedKind, type RedactorSeed } from './redact.ts';
export { redactorSeed } from './seed.ts';
export { redactionSummary, replacedText, NOT_RECOGNISED, type RedactionSummary } from './summary.ts';
