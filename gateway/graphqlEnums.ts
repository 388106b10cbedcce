import { isEnumType } from 'graphql';
import { z } from 'zod';
import { checkedInSchema } from './operationShape';

/**
 * A query or body field whose allowed values are a GraphQL enum's: the values come from the
 * schema, never from a list of the gateway's own. `restSpelling` turns a GraphQL name into the
 * REST API's spelling where they differ (venues: sim_kalshi is sim-kalshi); the validated value is
 * the GraphQL name again, ready to be a variable of the persisted operation.
 */
export function graphqlEnum(name: string, restSpelling: (graphqlName: string) => string = (value) => value) {
  const type = checkedInSchema().getType(name);
  if (!isEnumType(type)) throw new Error(`schema.graphql has no enum ${name}`);
  const names = type.getValues().map((value) => value.name);
  const byRest = new Map(names.map((graphqlName) => [restSpelling(graphqlName), graphqlName]));
  const values = [...byRest.keys()] as [string, ...string[]];
  if (names.every((graphqlName) => restSpelling(graphqlName) === graphqlName)) return z.enum(values);
  return z.enum(values).transform((value) => byRest.get(value)!);
}
