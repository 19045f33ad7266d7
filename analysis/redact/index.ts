export { Redactor, isMeaninglessIp, type RedactorSeed } from './redact.ts';
export { redactorSeed } from './seed.ts';
