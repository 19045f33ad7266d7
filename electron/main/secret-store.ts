// Remembered passwords for Connect to Node…, encrypted by the operating system through Electron's
// safeStorage (DPAPI on Windows, the Keychain on macOS, libsecret/kwallet on Linux). Only ciphertext
// (base64) reaches the disk, in one JSON file in userData written atomically with mode 0600. No
// runtime 'electron' import: index.ts passes safeStorage in, tests pass a fake.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SecretStore } from '../../services/backend/backend.ts';
import { writeJsonAtomic } from './json-file.ts';

/** The part of Electron's safeStorage used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret service backs the encryption ('basic_text' means none: a fixed key). */
  getSelectedStorageBackend?(): string;
}

export const SECRETS_FILE = 'secrets.json';

interface SecretsFile {
  version: 1;
  /** targetKey → base64 of safeStorage.encryptString(password). */
  secrets: Record<string, string>;
}

/** Linux backends that do not really protect anything: Chromium's fixed-key fallback. */
const WEAK_BACKENDS = new Set(['basic_text']);

export class SafeStorageSecretStore implements SecretStore {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly safe: SafeStorageLike,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  static inDir(userData: string, safe: SafeStorageLike, platform: NodeJS.Platform = process.platform): SafeStorageSecretStore {
    return new SafeStorageSecretStore(path.join(userData, SECRETS_FILE), safe, platform);
  }

  unavailableReason(): string | undefined {
    let available = false;
    try {
      available = this.safe.isEncryptionAvailable();
    } catch {
      available = false;
    }
    if (!available) return "the operating system's keychain is not available, so the password cannot be stored encrypted";
    if (this.platform === 'linux') {
      let backend: string | undefined;
      try {
        backend = this.safe.getSelectedStorageBackend?.();
      } catch {
        backend = undefined;
      }
      if (backend && WEAK_BACKENDS.has(backend)) return 'no keychain (GNOME Keyring or KWallet) is running, so the password could not be stored encrypted';
    }
    return undefined;
  }

  private async read(): Promise<SecretsFile> {
    let raw: string;
    try {
      raw = await fs.readFile(this.file, 'utf8');
    } catch {
      return { version: 1, secrets: {} };
    }
    try {
      const parsed = JSON.parse(raw) as Partial<SecretsFile>;
      const secrets: Record<string, string> = {};
      if (parsed && typeof parsed.secrets === 'object' && parsed.secrets) {
        for (const [k, v] of Object.entries(parsed.secrets)) if (typeof v === 'string') secrets[k] = v;
      }
      return { version: 1, secrets };
    } catch {
      return { version: 1, secrets: {} };
    }
  }

  /** Serialises read-modify-write cycles so two saves cannot lose each other. */
  private update(fn: (f: SecretsFile) => void): Promise<void> {
    const next = this.chain.then(async () => {
      const f = await this.read();
      fn(f);
      await writeJsonAtomic(this.file, f);
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  async get(targetKey: string): Promise<string | undefined> {
    if (this.unavailableReason()) return undefined;
    const b64 = (await this.read()).secrets[targetKey];
    if (!b64) return undefined;
    try {
      return this.safe.decryptString(Buffer.from(b64, 'base64'));
    } catch {
      // Encrypted under another user or keychain: as if nothing were remembered.
      return undefined;
    }
  }

  async set(targetKey: string, secret: string): Promise<void> {
    const reason = this.unavailableReason();
    if (reason) throw new Error(reason);
    const cipher = this.safe.encryptString(secret).toString('base64');
    await this.update((f) => {
      f.secrets[targetKey] = cipher;
    });
  }

  async delete(targetKey: string): Promise<void> {
    if (!(targetKey in (await this.read()).secrets)) return;
    await this.update((f) => {
      delete f.secrets[targetKey];
    });
  }

  async keys(): Promise<string[]> {
    return Object.keys((await this.read()).secrets);
  }
}
