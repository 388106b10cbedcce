import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The README's commands, run as written (test/docs/readme.test.ts). A shell block preceded by
 * `<!-- readme: <session> -->` belongs to that session; `<!-- readme: <session> background -->`
 * starts long-running commands (a fake venue, `npm start`) before the session's other blocks. A
 * session's other blocks run in order in one shell, as a reader pasting them into one terminal
 * would (variables set by one block are seen by the next), with `set -euo pipefail` and `curl`
 * failing on an HTTP error: a command that does not do what the README says fails the test, naming
 * its block and README line.
 */
export interface ReadmeBlock {
  session: string;
  background: boolean;
  /** The README's line of the block's first command. */
  line: number;
  code: string;
}

const MARKER = /^<!-- readme: ([a-z0-9-]+)( background)? -->$/;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const marker = MARKER.exec(lines[i]!.trim());
    if (!marker) continue;
    if (lines[i + 1]?.trim() !== '```sh') throw new Error(`README line ${i + 1}: a readme marker must stand right above a \`\`\`sh block`);
    const end = lines.indexOf('```', i + 2);
    if (end < 0) throw new Error(`README line ${i + 2}: the block never ends`);
    blocks.push({ session: marker[1]!, background: marker[2] !== undefined, line: i + 3, code: lines.slice(i + 2, end).join('\n') });
  }
  return blocks;
}

/**
 * What every session's shell has: strict mode, and `curl` that fails on an HTTP error (with the
 * answer's body shown) and ends what it prints with a newline. The README's own commands are not
 * changed: `curl -s` is still theirs.
 */
const PRELUDE = `set -euo pipefail
curl() { command curl --fail-with-body --show-error --max-time 60 "$@"; local status=$?; echo; return $status; }
`;

export interface SessionRun {
  /** Exit code of the foreground blocks' shell (0: every command did what it should). */
  code: number;
  output: string;
  /** The block that failed, when one did. */
  failedBlock?: ReadmeBlock;
}

/** The long-running commands of a session, started in their own process group (stopped together). */
export class Background {
  private readonly children: ChildProcess[] = [];
  private text = '';

  start(block: ReadmeBlock, env: NodeJS.ProcessEnv, cwd: string): void {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${block.code}`], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (this.text += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (this.text += chunk.toString('utf8')));
    this.children.push(child);
  }

  get output(): string {
    return this.text;
  }

  /** Stops every process the background blocks started (their process groups), waiting up to 15 s. */
  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => {
              try {
                process.kill(-child.pid!, 'SIGKILL');
              } catch {
                // gone
              }
              resolve();
            }, 15_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            try {
              process.kill(-child.pid!, 'SIGTERM');
            } catch {
              clearTimeout(timer);
              resolve();
            }
          }),
      ),
    );
    // The group may outlive its shell (a fake started with `&`): end whatever is left of it.
    for (const child of this.children) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
}

/** Runs the blocks (not background) in order in one shell with `env`; reports the first that fails. */
export async function runBlocks(blocks: ReadmeBlock[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 240_000): Promise<SessionRun> {
  const script = [
    PRELUDE,
    ...blocks.map((block, index) => `echo "::readme block ${index} (README line ${block.line})"\n${block.code}\n`),
    'echo "::readme done"\n',
  ].join('\n');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-readme-')), 'session.sh');
  fs.writeFileSync(file, script);
  const child = spawn('bash', [file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode ?? 1);
    });
  });
  const started = [...output.matchAll(/::readme block (\d+) /g)].map((match) => Number(match[1]));
  const last = started.length ? started[started.length - 1]! : undefined;
  const done = output.includes('::readme done');
  return { code, output, failedBlock: code !== 0 || !done ? (last !== undefined ? blocks[last] : undefined) : undefined };
}
