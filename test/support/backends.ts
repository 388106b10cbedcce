import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../core/config';
import { testConfig } from './env';

/**
 * The two databases the service runs on, for suites that must hold on both: PostgreSQL (the run's
 * database) and the embedded PGlite (`DATABASE_URL` unset: a fresh one in a temporary directory,
 * as `npm start` makes on a fresh machine). For `describe.each`.
 */
export const BACKENDS: [name: string, configOf: (overrides?: Record<string, string>) => Config][] = [
  ['PostgreSQL', (overrides = {}) => testConfig(overrides)],
  ['PGlite', (overrides = {}) => testConfig({ DATABASE_URL: '', PGLITE_DATA_DIR: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-pglite-')), 'data'), ...overrides })],
];
