import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

/** Prisma 7 runs its Wasm query compiler over a driver adapter: no native engine is involved. */
export function createPrismaClient(url: string, poolSize = 10): PrismaClient {
  const adapter = new PrismaPg({ connectionString: url, max: poolSize });
  // 'minimal': no stack captured per query (5% of a request's CPU), and error texts stay short.
  return new PrismaClient({ adapter, errorFormat: 'minimal' });
}
