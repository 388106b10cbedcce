import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfig } from 'graphql';
import { GATEWAY_ONLY } from './context';

type AnyField = GraphQLFieldConfig<unknown, unknown>;

const isGatewayOnly = (field: AnyField) => field.extensions?.[Object.keys(GATEWAY_ONLY)[0]!] === true;

/** The root type without its gateway-only fields (the same resolvers, options and extensions otherwise). */
function withoutGatewayOnly(type: GraphQLObjectType | null | undefined): GraphQLObjectType | undefined {
  if (!type) return undefined;
  const config = type.toConfig();
  const fields = Object.fromEntries(Object.entries(config.fields).filter(([, field]) => !isGatewayOnly(field as AnyField)));
  return new GraphQLObjectType({ ...config, fields });
}

/**
 * The schema the analysts' endpoint serves: the core's, less the fields only the gateway may call
 * (GATEWAY_ONLY: credential and session lookups, sign-in). They are absent, not only refused: an
 * analyst's introspection does not list them, and a document naming one fails validation like any
 * unknown field. Types reachable only through them go too: the schema is built from its roots
 * (the core's schema has no interface or union whose members only the type list would keep).
 */
export function analystSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    query: withoutGatewayOnly(config.query),
    mutation: withoutGatewayOnly(config.mutation),
    subscription: withoutGatewayOnly(config.subscription),
    types: [],
  });
}
