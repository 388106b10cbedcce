import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * PGlite (PostgreSQL compiled to Wasm) served on a loopback socket, so that the service, the CLI
 * and any psql reach it the same way they reach a real PostgreSQL: through `pg` and a URL.
 * PGlite admits one process; the socket lets the CLI in while `npm start` holds the data directory.
 * The address is published in `<dataDir>.server.json` while the server runs.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface ServerFile {
  pid: number;
  port: number;
}

const serverFileOf = (dataDir: string) => `${path.resolve(dataDir)}.server.json`;
const urlFor = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;

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
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    maxConnections: options.maxConnections ?? 32,
  });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const serverFile = inMemory ? undefined : serverFileOf(dataDir);
  if (serverFile) {
    fs.writeFileSync(serverFile, JSON.stringify({ pid: process.pid, port } satisfies ServerFile));
  }
  let stopped = false;
  return {
    url: urlFor(port),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (serverFile) fs.rmSync(serverFile, { force: true });
      await server.stop();
      await db.close();
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
  if (!isAlive(file.pid) || !(await acceptsConnections(file.port))) return undefined;
  return { url: urlFor(file.port), pid: file.pid };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
