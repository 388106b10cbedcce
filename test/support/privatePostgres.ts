import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOnFreePort } from './http';

const run = promisify(execFile);

/** The PostgreSQL server binaries of the machine's cluster (Debian: /usr/lib/postgresql/<major>/bin). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a));
  if (majors.length === 0) throw new Error(`no PostgreSQL server under ${root}`);
  return path.join(root, majors[0]!, 'bin');
}

export interface PrivatePostgres {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops the server as an operator would (`pg_ctl stop -m fast`: sessions are ended, new ones refused). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of a suite's own, in a temporary directory on a free port: a suite that stops
 * the database cannot stop the one every other suite uses. Real PostgreSQL, the machine's binaries
 * (initdb, pg_ctl); as root they run as the `postgres` user, which initdb requires.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run('chown', ['postgres', dir]);
  const pgRun = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]) : run(path.join(bin, program), args);
  let port = 0;
  await pgRun('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const options = () => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const start = async () => void (await pgRun('pg_ctl', ['-D', data, '-o', options(), '-l', path.join(dir, 'log'), '-w', 'start']));
  const stop = async () => void (await pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']));
  port = await startOnFreePort(async (free) => {
    port = free;
    await start();
  });
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
