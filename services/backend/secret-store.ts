// Where saved connection secrets live (the Electron shell supplies one). A leaf type, so live collection
// reads it without importing the backend context that holds it.
/** Remembered passwords, keyed by targetKey(). Implementations store only ciphertext. */
export interface SecretStore {
  /** Undefined when secrets can be stored now; otherwise why not, in words for the user. */
  unavailableReason(): string | undefined;
  get(targetKey: string): Promise<string | undefined>;
  set(targetKey: string, secret: string): Promise<void>;
  delete(targetKey: string): Promise<void>;
  /** The keys that have a secret, without decrypting any. */
  keys(): Promise<string[]>;
}
