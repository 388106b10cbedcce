import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * PGlite (PostgreSQL compiled to Wasm) served on a socket, so that the service, the CLI and any
 * psql reach it the same way they reach a real PostgreSQL: through `pg` and a URL. PGlite admits
 * one process; the socket lets the CLI in while `npm start` holds the data directory.
 *
 * Only the user who runs the service can reach it or read it: the socket is a Unix socket in a
 * directory of its own with mode 0700 (PGlite's server has no authentication, so no TCP port is
 * opened, where anyone on the machine could connect), and the data directory and the file that
 * publishes the socket's address (`<dataDir>.server.json`, while the server runs) are the owner's
 * only.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface ServerFile {
  pid: number;
  /** The directory holding the socket, `.s.PGSQL.5432` (PostgreSQL's naming, which `pg` follows). */
  socketDir: string;
}

const SOCKET_PORT = 5432;
const serverFileOf = (dataDir: string) => `${path.resolve(dataDir)}.server.json`;
const socketPathOf = (socketDir: string) => path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`);
const urlFor = (socketDir: string) => `postgresql://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;

export async function startEmbeddedPostgres(
  dataDir: string | 'memory',
  options: { maxConnections?: number } = {},
): Promise<EmbeddedPostgres> {
  const inMemory = dataDir === 'memory';
  if (!inMemory) {
    const running = await findRunningEmbeddedPostgres(dataDir);
    if (running) {
      throw new Error(`the embedded database in ${dataDir} is already served by process ${running.pid}`);
    }
    fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  }
  const db = await PGlite.create(inMemory ? 'memory://' : path.resolve(dataDir));
  if (!inMemory) fs.chmodSync(path.resolve(dataDir), 0o700);
  // mkdtemp creates the directory with mode 0700: only this user may open the socket inside.
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-pglite-'));
  const server = new PGLiteSocketServer({ db, path: socketPathOf(socketDir), maxConnections: options.maxConnections ?? 32 });
  await server.start();
  const serverFile = inMemory ? undefined : serverFileOf(dataDir);
  if (serverFile) {
    fs.writeFileSync(serverFile, JSON.stringify({ pid: process.pid, socketDir } satisfies ServerFile), { mode: 0o600 });
  }
  let stopped = false;
  return {
    url: urlFor(socketDir),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (serverFile) fs.rmSync(serverFile, { force: true });
      await server.stop();
      await db.close();
      fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The URL of an embedded database another process of ours is serving, if any. */
export async function findRunningEmbeddedPostgres(
  dataDir: string,
): Promise<{ url: string; pid: number } | undefined> {
  let file: ServerFile;
  try {
    file = JSON.parse(fs.readFileSync(serverFileOf(dataDir), 'utf8')) as ServerFile;
  } catch {
    return undefined;
  }
  if (typeof file.socketDir !== 'string' || !isAlive(file.pid) || !(await acceptsConnections(socketPathOf(file.socketDir)))) return undefined;
  return { url: urlFor(file.socketDir), pid: file.pid };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function acceptsConnections(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: socketPath });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
