import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { credentialKeysFor, EMBEDDED_KEK_ID, embeddedKekPath } from '../../core/db/embeddedKek';

/** The key that seals credentials and webhook secrets, by configuration (docs/credentials.md). */
describe('credentialKeysFor', () => {
  const dataDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-kek-')), 'pglite');
  const operatorKek = Buffer.alloc(32, 3).toString('base64');

  it('on the embedded default without CREDENTIALS_KEK: a key of its own, in an owner-only file beside the data, the same on every start', () => {
    const dir = dataDir();
    const first = credentialKeysFor({ PGLITE_DATA_DIR: dir, CREDENTIALS_KEK_ID: 'kek1' });
    expect(first.current?.id).toBe(EMBEDDED_KEK_ID);
    expect(first.current?.key.length).toBe(32);
    expect(first.embeddedKekFile).toBe(`${dir}.kek`);
    expect(fs.statSync(embeddedKekPath(dir)).mode & 0o777).toBe(0o600);
    const second = credentialKeysFor({ PGLITE_DATA_DIR: dir, CREDENTIALS_KEK_ID: 'kek1' });
    expect(second.current?.key.equals(first.current!.key)).toBe(true);
  });

  it('an in-memory database keeps its key in memory; an operator’s CREDENTIALS_KEK always wins', () => {
    const memory = credentialKeysFor({ PGLITE_DATA_DIR: 'memory', CREDENTIALS_KEK_ID: 'kek1' });
    expect(memory.current?.id).toBe(EMBEDDED_KEK_ID);
    expect(memory.embeddedKekFile).toBeUndefined();
    const dir = dataDir();
    const configured = credentialKeysFor({ PGLITE_DATA_DIR: dir, CREDENTIALS_KEK: operatorKek, CREDENTIALS_KEK_ID: 'kek1' });
    expect(configured.current?.id).toBe('kek1');
    expect(fs.existsSync(embeddedKekPath(dir))).toBe(false);
  });

  it('with the operator’s database (DATABASE_URL) nothing is sealed without CREDENTIALS_KEK', () => {
    const keys = credentialKeysFor({ DATABASE_URL: 'postgresql://x@127.0.0.1/db', PGLITE_DATA_DIR: dataDir(), CREDENTIALS_KEK_ID: 'kek1' });
    expect(keys.current).toBeNull();
  });

  it('refuses a key file that was damaged, naming it and the remedy', () => {
    const dir = dataDir();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(embeddedKekPath(dir), 'not a key\n', { mode: 0o600 });
    expect(() => credentialKeysFor({ PGLITE_DATA_DIR: dir, CREDENTIALS_KEK_ID: 'kek1' })).toThrow(/does not hold a key of 32 bytes.*set CREDENTIALS_KEK/);
  });
});
