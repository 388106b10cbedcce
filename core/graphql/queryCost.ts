import { getNamedType, GraphQLList, GraphQLNonNull, isObjectType, Kind, type GraphQLField, type GraphQLOutputType, type GraphQLResolveInfo } from 'graphql';
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { DomainError } from '../domain/errors';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../contract/inputBounds';

/**
 * What one analyst document may ask for (docs/analyst-graphql.md, "Limits"): nesting depth, fields
 * selected, and cost. The cost bounds the rows one document can load: every row costs at least 1
 * (each selected field costs 1), so a document within it loads at most 10,000 rows, and no batched
 * load can come near PostgreSQL's 65,535 bind parameters in one statement (Prisma's P2029).
 */
export const ANALYST_QUERY_LIMITS = { depth: 8, breadth: 200, complexity: 10_000 };

/** What a list without a `limit` argument (a subaccount's positions, an order's fills) is taken to hold. */
export const UNBOUNDED_LIST_ITEMS = 10;

/** The items a `limit` argument asks for: the default when left out, never more than the maximum. */
function itemsAsked(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return DEFAULT_PAGE_LIMIT;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_LIMIT);
}

function isList(type: GraphQLOutputType): boolean {
  if (type instanceof GraphQLNonNull) return isList(type.ofType);
  return type instanceof GraphQLList;
}

/** `{ data, hasMore, nextCursor }` (schema/page.ts): its `data` costs nothing more; the field that returns it multiplies. */
function isPage(type: GraphQLOutputType): boolean {
  const named = getNamedType(type);
  return isObjectType(named) && 'data' in named.getFields() && 'hasMore' in named.getFields();
}

/**
 * The cost of one field for @pothos/plugin-complexity: 1 for the field itself, and what it selects
 * multiplied by the items it can return. A field with a `limit` argument returns as many as its
 * limit (50 when left out, at most 200), whether it is a list or a page; a list or a page without
 * one counts UNBOUNDED_LIST_ITEMS. Nested lists multiply, and every alias and every spread of a
 * fragment is counted again, as the plugin sums each selection.
 */
export function fieldCost<Context>(args: Record<string, unknown>, _ctx: Context, field: GraphQLField<unknown, Context, Record<string, unknown>>): { field: number; multiplier: number } {
  if (field.args.some((arg) => arg.name === 'limit')) return { field: 1, multiplier: itemsAsked(args.limit) };
  if (isList(field.type) || isPage(field.type)) return { field: 1, multiplier: UNBOUNDED_LIST_ITEMS };
  return { field: 1, multiplier: 1 };
}

type Measure = keyof typeof ANALYST_QUERY_LIMITS;

/** The refusal of a document past one of the limits: 400 invalid_request naming the measure. */
export function complexityRefusal(measure: Measure, value: number): DomainError {
  return new DomainError(
    'invalid_request',
    `The query's ${measure} is ${value}, above the limit of ${ANALYST_QUERY_LIMITS[measure]}; ask for less (smaller limits, fewer nested lists, fewer aliased copies). A list costs what it selects times its limit (50 when left out); see docs/analyst-graphql.md.`,
    measure,
  );
}

/**
 * A subscription's document measured like a query's, once, when it subscribes: the complexity
 * plugin checks a field when it resolves, which for a subscription is each event, after the
 * stream has begun. Its selection is what every event will load.
 */
export function refuseCostlySubscription<Context extends object>(ctx: Context, info: GraphQLResolveInfo): void {
  const document = { kind: Kind.DOCUMENT, definitions: [info.operation, ...Object.values(info.fragments)] } as const;
  const cost = complexityFromQuery(document, { schema: info.schema, ctx, variables: info.variableValues });
  for (const measure of Object.keys(ANALYST_QUERY_LIMITS) as Measure[]) {
    if (cost[measure] > ANALYST_QUERY_LIMITS[measure]) throw complexityRefusal(measure, cost[measure]);
  }
}
