import autocannon from 'autocannon';
import { createBenchDatabase, startChild, runCleanups, installSignalHandlers } from './support';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey } from '../core/services/apiKeys';
import { seedSimulatedMarkets } from '../core/services/marketCatalog';
import { createWorkspace } from '../core/services/workspaces';
installSignalHandlers();
(async () => {
  const d = await createBenchDatabase();
  const db = createPrismaClient(d.url, 2);
  await seedSimulatedMarkets(db);
  const ws = await createWorkspace(db, 'x');
  const { secret } = await createApiKey(db, { workspaceId: ws.id, environment: 'test' });
  const m = await db.market.findFirst({ select: { id: true } });
  await db.$disconnect();
  const c = startChild({ label: 's', script: 'bin/start.ts', env: { DATABASE_URL: d.url, PORT: '0', INTERNAL_TOKEN: 'x'.repeat(40), RATE_LIMIT_DEFAULT: '1000000', LOG_LEVEL: 'info', AUTH_CACHE_TTL_MS: process.env.TTL, NODE_ENV: process.env.NENV } });
  const { url } = (await c.waitForLog((l) => l.msg === 'listening')) as any;
  const conns = Number(process.env.CONNS ?? 50);
  for (const round of [1, 2]) {
    const t0 = performance.now();
    const rec: [number, number][] = [];
    await new Promise<void>((resolve) => {
      const inst = autocannon({ url: `${url}/v1/markets/${m!.id}`, headers: { authorization: `Bearer ${secret}` }, connections: conns, duration: 15 }, () => resolve());
      const first = new Map<unknown, number>(); const counts = new Map<unknown, number>();
      inst.on('response', (cl, _s, _b, rt) => { rec.push([performance.now() - t0, rt]); if (!first.has(cl)) first.set(cl, performance.now() - t0); counts.set(cl, (counts.get(cl) ?? 0) + 1); });
      inst.on('done', () => {  });
    });
    if (!round) continue;
    const buckets = new Map<number, { n: number; max: number }>();
    for (const [t, l] of rec) { const b = Math.floor(t / 3000); const e = buckets.get(b) ?? { n: 0, max: 0 }; e.n++; e.max = Math.max(e.max, l); buckets.set(b, e); }
    console.log('req/s', (rec.length / 15).toFixed(0));
    console.log([...buckets].map(([b, e]) => `${(b * 3).toFixed(2)}s n=${e.n} max=${e.max.toFixed(0)}`).join('\n'));
    const sorted = rec.map((r) => r[1]).sort((a, b) => a - b);
    console.log('p50', sorted[Math.floor(sorted.length * 0.5)]?.toFixed(1), 'p99', sorted[Math.floor(sorted.length * 0.99)]?.toFixed(1));
  }
  await runCleanups();
  process.exit(0);
})().catch(async (e) => { console.error(e); await runCleanups(); process.exit(1); });
