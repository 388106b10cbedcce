import type { Config } from '../config';
import { startEmbeddedPostgres, findRunningEmbeddedPostgres } from './embeddedPostgres';

/**
 * The database to use: DATABASE_URL when set; otherwise the embedded PGlite in PGLITE_DATA_DIR,
 * joined through its socket when another process of ours already serves it, else started here.
 */
export async function openDatabase(config: Config): Promise<{ url: string; embedded: boolean; close(): Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, close: async () => undefined };
  const running = await findRunningEmbeddedPostgres(config.PGLITE_DATA_DIR);
  if (running) return { url: running.url, embedded: true, close: async () => undefined };
  const embedded = await startEmbeddedPostgres(config.PGLITE_DATA_DIR);
  return { url: embedded.url, embedded: true, close: () => embedded.stop() };
}
