import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import type { CoreContext } from './context';
import { ANALYST_QUERY_LIMITS, complexityRefusal, fieldCost } from './queryCost';

export { ANALYST_QUERY_LIMITS };

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
  plugins: [ComplexityPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  complexity: {
    // Lists cost what their `limit` asks for (queryCost.ts); a field's own `complexity` overrides it.
    fieldComplexity: fieldCost,
    // Documents written by analysts are bounded; the gateway's persisted operations are reviewed code.
    limit: (ctx) => (ctx.principal.kind === 'analyst' ? ANALYST_QUERY_LIMITS : {}),
    complexityError: (kind, result) => {
      const measure = kind.toLowerCase() as 'depth' | 'breadth' | 'complexity';
      return complexityRefusal(measure, result[measure]);
    },
  },
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
builder.subscriptionType({ description: 'Served by the analysts’ endpoint only (docs/analyst-graphql.md, "Subscriptions"), over Server-Sent Events.' });
