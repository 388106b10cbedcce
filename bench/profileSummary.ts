/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self and inclusive time per function and
 * per component (npm package, Node core, project directory, Wasm, GC), optionally restricted to a
 * time window (the measured part of a load run, without start-up and shutdown).
 *
 * Run alone: npx tsx bench/profileSummary.ts <file.cpuprofile> [--last-seconds N]
 */
import fs from 'node:fs';
import path from 'node:path';
import { RESULTS_DIR, type ManagedChild } from './support';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  samples: number;
  /** Percentage of all samples in the window (idle included). */
  pctOfAll: number;
  /** Percentage of the busy samples (idle excluded). */
  pctOfBusy: number;
}

export interface ProfileSummary {
  file: string;
  windowSeconds: number;
  sampleIntervalUs: number;
  samples: number;
  busySamples: number;
  idlePct: number;
  /** Exclusive layers (see LAYERS), adding up to 100% of busy time. */
  layers: Share[];
  selfByComponent: Share[];
  /** Self time charged to the nearest library or project frame (Node internals and V8 builtins go to their caller). */
  selfByOwner: Share[];
  inclusiveByComponent: Share[];
  selfByFunction: Share[];
  inclusiveByFunction: Share[];
}

export interface ProfileWindow {
  /** Microseconds before the profile's end where the window starts. */
  startBeforeEndUs: number;
  /** Microseconds before the profile's end where the window stops (0 = the end). */
  endBeforeEndUs: number;
}

const ROOT = path.resolve(__dirname, '..');

/** Which part of the stack a frame belongs to, in terms the lead can act on. */
export function componentOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(garbage collector)') return 'V8 garbage collector';
    if (functionName === '(program)') return 'V8/native (unattributed)';
    if (functionName === '(root)') return '(root)';
    return 'V8 builtins (JSON, RegExp, Map, ...)';
  }
  if (url.startsWith('wasm://')) return 'Wasm (Prisma query compiler; undici llhttp parser)';
  if (url.startsWith('node:')) {
    if (url.includes('deps/undici')) return 'node: bundled undici (fetch/Request/Response)';
    if (url.startsWith('node:internal/streams') || url.startsWith('node:stream')) return 'node: streams';
    if (url.startsWith('node:_http') || url.startsWith('node:http') || url.includes('internal/http')) return 'node: http';
    if (url.startsWith('node:net') || url.startsWith('node:internal/stream_base') || url.includes('internal/net')) return 'node: net/sockets';
    if (url.includes('internal/crypto') || url.startsWith('node:crypto')) return 'node: crypto';
    if (url.includes('internal/process/task_queues') || url.includes('internal/timers') || url.includes('async_hooks') || url.includes('internal/process/promises'))
      return 'node: async scheduling/timers';
    if (url.includes('internal/webstreams') || url.includes('internal/abort_controller') || url.includes('internal/event_target') || url.includes('internal/blob'))
      return 'node: web APIs (streams, AbortSignal, EventTarget)';
    if (url.includes('internal/url')) return 'node: URL';
    return 'node: other';
  }
  const file = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const marker = file.lastIndexOf('/node_modules/');
  if (marker >= 0) {
    const parts = file.slice(marker + '/node_modules/'.length).split('/');
    const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    if (name === '@prisma/client' && file.includes('query_compiler')) return '@prisma/client (query compiler glue)';
    return name;
  }
  if (file.startsWith(ROOT)) {
    const relative = path.relative(ROOT, file);
    const [top, second] = relative.split(path.sep);
    if (top === 'core' && second === 'generated') return 'app: core/generated (Prisma client)';
    return `app: ${top}${second && !second.includes('.') ? `/${second}` : ''}`;
  }
  return 'other';
}

/**
 * Exclusive layers: each busy sample goes to the first rule its stack (leaf first) matches, so the
 * shares add up to 100%. The rules name the costs one could act on in this codebase.
 */
const pkg = (frame: CallFrame, pattern: RegExp) => pattern.test(frame.url);
const named = (frame: CallFrame, name: string, urlPart = '') => frame.functionName === name && frame.url.includes(urlPart);
export const LAYERS: { name: string; matches(stack: CallFrame[]): boolean }[] = [
  { name: 'V8 garbage collector', matches: (s) => s[0]!.functionName === '(garbage collector)' },
  {
    name: 'Prisma: call-site capture (new Error() per query; errorFormat != minimal)',
    // EnabledCallSite's constructor; minified in the bundle, recognised by its caller chain.
    matches: (s) => s.some((f) => f.url.includes('@prisma/client/runtime') && f.functionName === 'Hn'),
  },
  { name: 'pg driver (pg, pg-protocol, pg-pool, adapter-pg; socket I/O)', matches: (s) => s.some((f) => pkg(f, /node_modules\/(pg|pg-protocol|pg-pool|pg-types|@prisma\/adapter-pg|@prisma\/driver-adapter-utils)\//)) },
  { name: 'Prisma client runtime (query interpreter, (de)serialisation, Wasm compiler)', matches: (s) => s.some((f) => f.url.includes('@prisma/client') || f.url.startsWith('wasm://') && !s.some((g) => g.url.includes('undici'))) },
  {
    name: "graphql-yoga maxRequestBodySize: TransformStream + stream.pipeline per request",
    matches: (s) =>
      !s.some((f) => f.url.includes('node_modules/undici/')) &&
      s.some((f) => named(f, 'limitRequestBodySize') || f.url === 'node:internal/streams/pipeline' || f.url.includes('internal/webstreams')),
  },
  { name: 'HMAC sign/verify of the principal header', matches: (s) => s.some((f) => named(f, 'signPrincipal') || named(f, 'verifyPrincipal')) },
  {
    name: 'AbortSignal.timeout per core call (created, then fired 5 s later)',
    matches: (s) => s.some((f) => named(f, 'timeout', 'abort_controller')) || (s.some((f) => f.url.includes('abort_controller')) && s.some((f) => named(f, 'listOnTimeout'))),
  },
  { name: 'undici (gateway -> core HTTP client)', matches: (s) => s.some((f) => f.url.includes('node_modules/undici/')) },
  { name: 'GraphQL execution (graphql-tools executor, graphql-js, Pothos resolvers)', matches: (s) => s.some((f) => pkg(f, /node_modules\/(@graphql-tools\/executor|graphql|@pothos\/[^/]+)\//) || /\/core\/(graphql|services)\//.test(f.url)) },
  { name: 'graphql-yoga / envelop / whatwg-node (Request/Response objects, parsing, result serialisation)', matches: (s) => s.some((f) => pkg(f, /node_modules\/(graphql-yoga|@graphql-yoga\/[^/]+|@envelop\/[^/]+|@whatwg-node\/[^/]+|@graphql-tools\/utils)\//)) },
  { name: 'Koa, router, rate limiter, gateway middleware and core client', matches: (s) => s.some((f) => pkg(f, /node_modules\/(koa|koa-compose|@koa\/router|koa-ratelimit|ms|raw-body)\//) || /\/gateway\//.test(f.url)) },
  { name: 'Node http server (parse, write) and sockets, no library on the stack', matches: (s) => s.some((f) => /^node:(_http|net|internal\/(http|stream_base_commons|net))/.test(f.url)) },
  { name: 'other', matches: () => true },
];

function functionKey(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  let where = frame.url;
  if (where.startsWith('file://')) where = decodeURIComponent(where.slice('file://'.length));
  const marker = where.lastIndexOf('/node_modules/');
  if (marker >= 0) where = where.slice(marker + '/node_modules/'.length);
  else if (where.startsWith(ROOT)) {
    // Project files run through tsx's transform: their line numbers are not the source's.
    return `${name} (${path.relative(ROOT, where)})`;
  }
  if (where.startsWith('wasm://')) return `${name} [wasm]`;
  return `${name} (${where}:${frame.lineNumber + 1})`;
}

export function summarizeProfile(file: string, window?: ProfileWindow, top = 25): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const from = window ? profile.endTime - window.startBeforeEndUs : -Infinity;
  const to = window ? profile.endTime - window.endBeforeEndUs : Infinity;
  const hits = new Map<number, number>();
  let time = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < from || time > to) continue;
    const id = profile.samples[i]!;
    hits.set(id, (hits.get(id) ?? 0) + 1);
    total++;
  }

  const selfComponent = new Map<string, number>();
  const selfOwner = new Map<string, number>();
  const layers = new Map<string, number>();
  const generic = (component: string) => component.startsWith('node: ') || component.startsWith('V8 builtins') || component === '(root)';
  const selfFunction = new Map<string, number>();
  const inclusiveComponent = new Map<string, number>();
  const inclusiveFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  let idle = 0;
  for (const [id, n] of hits) {
    const node = byId.get(id)!;
    const component = componentOf(node.callFrame);
    if (component === '(idle)') {
      idle += n;
      continue;
    }
    add(selfComponent, component, n);
    add(selfFunction, functionKey(node.callFrame), n);
    let owner = component;
    for (let at: number | undefined = id; at !== undefined && generic(owner); at = parent.get(at)) {
      const c = componentOf(byId.get(at)!.callFrame);
      if (!generic(c)) owner = c;
    }
    add(selfOwner, generic(owner) ? `${component} (no library caller)` : owner, n);
    const components = new Set<string>();
    const functions = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const c = componentOf(frame);
      if (c === '(root)') continue;
      components.add(c);
      functions.add(functionKey(frame));
    }
    for (const c of components) add(inclusiveComponent, c, n);
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
    add(layers, LAYERS.find((layer) => layer.matches(stack))!.name, n);
    for (const f of functions) add(inclusiveFunction, f, n);
  }
  const busy = total - idle;
  const shares = (map: Map<string, number>, limit: number): Share[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, samples]) => ({
        name,
        samples,
        pctOfAll: Math.round((1000 * samples) / Math.max(1, total)) / 10,
        pctOfBusy: Math.round((1000 * samples) / Math.max(1, busy)) / 10,
      }));
  const seconds = window ? (window.startBeforeEndUs - window.endBeforeEndUs) / 1e6 : (profile.endTime - profile.startTime) / 1e6;
  return {
    file,
    windowSeconds: Math.round(seconds * 100) / 100,
    sampleIntervalUs: total ? Math.round((seconds * 1e6) / total) : 0,
    samples: total,
    busySamples: busy,
    idlePct: Math.round((1000 * idle) / Math.max(1, total)) / 10,
    layers: shares(layers, LAYERS.length),
    selfByComponent: shares(selfComponent, top),
    selfByOwner: shares(selfOwner, top),
    inclusiveByComponent: shares(inclusiveComponent, top),
    selfByFunction: shares(selfFunction, top),
    inclusiveByFunction: shares(inclusiveFunction, top * 2),
  };
}

export function formatProfileSummary(summary: ProfileSummary, top = 20): string {
  const table = (title: string, rows: Share[]) =>
    [
      `  ${title}`,
      `    ${'% busy'.padStart(6)}  ${'% all'.padStart(6)}  name`,
      ...rows.slice(0, top).map((row) => `    ${row.pctOfBusy.toFixed(1).padStart(6)}  ${row.pctOfAll.toFixed(1).padStart(6)}  ${row.name}`),
    ].join('\n');
  return [
    `profile ${path.relative(process.cwd(), summary.file)}: ${summary.samples} samples over ${summary.windowSeconds} s ` +
      `(~${summary.sampleIntervalUs} us each), idle ${summary.idlePct}%`,
    table('exclusive layers (each busy sample counted once, first matching layer; adds up to 100% of busy)', summary.layers),
    table('self time by component', summary.selfByComponent),
    table('self time by owner (Node internals and V8 builtins charged to the nearest library/project caller)', summary.selfByOwner),
    table('inclusive time by component (a sample counts once per component on its stack)', summary.inclusiveByComponent),
    table('self time by function', summary.selfByFunction),
    table('inclusive time by function', summary.inclusiveByFunction),
  ].join('\n\n');
}

/** A measured window of a profiled server, in process.hrtime.bigint() of the benchmark. */
export interface ServerWindow {
  target: string;
  from: bigint;
  to: bigint;
}

/**
 * Stops a server that ran under --cpu-prof (its profile is written on exit) and prints, per
 * window, where its main thread spent it; each summary also goes to
 * bench-results/profile-<prefix>-<target>.txt.
 */
export async function summariseProfiledWindows(server: ManagedChild, profileDir: string, prefix: string, windows: ServerWindow[]): Promise<void> {
  await server.stop();
  const mainThread = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${server.pid}.0.`));
  if (!mainThread) throw new Error(`no main-thread CPU profile for pid ${server.pid} in ${profileDir}`);
  // V8 stamps the profile with the monotonic clock in microseconds, the clock of process.hrtime()
  // here: the windows map onto it exactly. (Measuring back from when the server had exited was off
  // by the time it took to write the profile, ~0.2 s for a few minutes of samples.)
  const { endTime } = JSON.parse(fs.readFileSync(path.join(profileDir, mainThread), 'utf8')) as { endTime: number };
  for (const window of windows) {
    const summary = summarizeProfile(path.join(profileDir, mainThread), {
      startBeforeEndUs: endTime - Number(window.from / 1000n),
      endBeforeEndUs: endTime - Number(window.to / 1000n),
    });
    const label = `${prefix}-${window.target.replace(/\W+/g, '-')}`;
    process.stdout.write(`\n  == profile, ${window.target}: ${formatProfileSummary(summary, 15).split('\n').join('\n  ')}\n`);
    fs.writeFileSync(path.join(RESULTS_DIR, `profile-${label}.txt`), `${formatProfileSummary(summary, 40)}\n`);
  }
}

if (require.main === module) {
  const [file, flag, value] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profileSummary.ts <file.cpuprofile> [--last-seconds N]\n');
    process.exit(2);
  }
  const window = flag === '--last-seconds' && value ? { startBeforeEndUs: Number(value) * 1e6, endBeforeEndUs: 0 } : undefined;
  console.log(formatProfileSummary(summarizeProfile(file, window), 30));
}
