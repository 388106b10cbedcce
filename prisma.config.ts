import { defineConfig } from 'prisma/config';

// Prisma 7 reads no .env and env('DATABASE_URL') throws when unset, even for generate;
// the placeholder only serves generate (docs/runtime.md: generate runs offline). Migrations are applied by core/db/migrate.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/placeholder' },
});
