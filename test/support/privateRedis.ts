import { spawn, type ChildProcess } from 'node:child_process';
import { startOnFreePort } from './http';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A Redis server of a suite's own (the machine's redis-server, on a free port, keeping nothing on
 * disk): a suite that stops Redis cannot stop the one the other suites share.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  let port = 0;
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  port = await startOnFreePort(async (free) => {
    port = free;
    await start();
  });
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}
