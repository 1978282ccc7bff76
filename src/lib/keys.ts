import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/**
 * An Ed25519 private key from its configured PKCS#8 PEM, else (outside production) one generated once and
 * kept under DATA_DIR/keys/<fileName> so signatures stay verifiable across restarts. Tests keep it in memory.
 */
export function loadEd25519Key(config: { dataDir: string; env: string }, pem: string | undefined, fileName: string): KeyObject {
  if (pem) return createPrivateKey(pem);
  const file = path.join(config.dataDir, 'keys', fileName);
  if (fs.existsSync(file)) return createPrivateKey(fs.readFileSync(file, 'utf8'));
  const { privateKey } = generateKeyPairSync('ed25519');
  if (config.env !== 'test') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
  }
  return privateKey;
}
