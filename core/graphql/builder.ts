import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import type { CoreContext } from './context';
import { DomainError } from '../domain/errors';

/** What one analyst document may ask for: nesting depth, fields selected, and complexity (lists count 10×). */
export const ANALYST_QUERY_LIMITS = { depth: 8, breadth: 200, complexity: 5000 };

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
    defaultComplexity: 1,
    defaultListMultiplier: 10,
    // Documents written by analysts are bounded; the gateway's persisted operations are reviewed code.
    limit: (ctx) => (ctx.principal.kind === 'analyst' ? ANALYST_QUERY_LIMITS : {}),
    complexityError: (kind, result) => {
      const measure = kind.toLowerCase() as 'depth' | 'breadth' | 'complexity';
      return new DomainError(
        'invalid_request',
        `The query's ${measure} is ${result[measure]}, above the limit of ${ANALYST_QUERY_LIMITS[measure]}; ask for less (smaller limits, fewer nested lists).`,
        measure,
      );
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
