import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import type { CoreContext } from './context';

/** The one SchemaBuilder of the core; each file under schema/ adds one domain type's fields. */
export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: CoreContext;
  DefaultFieldNullability: false;
  Scalars: {
    Decimal: { Input: string; Output: { toString(): string } };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.queryType({});
builder.mutationType({});
