import {
  getIntrospectionQuery,
  getNamedType,
  GraphQLList,
  GraphQLNonNull,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  type GraphQLError,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { graphqlError } from './errorMasking';

/**
 * Introspection (`__schema`, `__type`) on the analysts' endpoint, inside limits of its own
 * (docs/analyst-graphql.md, "Introspection"). Pothos's complexity plugin measures the schema's own
 * fields only; introspection is measured here, before the document is validated any further:
 *
 * - **Cost**: every selected field costs 1, and a list multiplies what it selects by the most items
 *   that list can hold in this schema (`types` by the number of types, `fields` by the most fields
 *   of any type, `args` by the most arguments of any field, ...). Aliases and fragment spreads
 *   count again, as in the complexity plugin. So a document's cost bounds the objects its answer
 *   can hold, whatever it selects.
 * - **Breadth**: the fields selected, aliases and fragment spreads counted again (many aliases of
 *   a small `__type { … }` are refused by it).
 * - **Limits**: one and a half times the breadth and cost of graphql-js's full introspection query
 *   with every option on (what GraphiQL and code generators send): one full introspection fits, two
 *   copies of it under aliases do not, nor 1,000 aliases of a small `__schema { … }`.
 * - **Off switch**: with ANALYST_INTROSPECTION=off every `__schema` and `__type` is refused
 *   (`__typename` stays: clients rely on it, and it costs nothing).
 */
export interface IntrospectionPolicy {
  enabled: boolean;
  /** The most a document's introspection may ask for. */
  limits: IntrospectionMeasure;
  /** What the full introspection query asks for, which the limits are built from. */
  fullQuery: IntrospectionMeasure;
}

const LIMITS_OVER_FULL_QUERY = 1.5;

/** The most items each introspection list can return in this schema, keyed `__Type.fields`. */
function listBounds(schema: GraphQLSchema): Map<string, number> {
  const types = Object.values(schema.getTypeMap());
  const most = (counts: number[]) => Math.max(1, ...counts);
  const fieldsOf = (type: GraphQLNamedType): GraphQLField<unknown, unknown>[] =>
    isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [];
  const directives = schema.getDirectives();
  const bounds = new Map<string, number>([
    ['__Schema.types', most([types.length])],
    ['__Schema.directives', most([directives.length])],
    ['__Type.fields', most(types.map((type) => fieldsOf(type).length))],
    ['__Type.interfaces', most(types.map((type) => (isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().length : 0)))],
    ['__Type.possibleTypes', most(types.map((type) => (isUnionType(type) || isInterfaceType(type) ? schema.getPossibleTypes(type).length : 0)))],
    ['__Type.enumValues', most(types.map((type) => (isEnumType(type) ? type.getValues().length : 0)))],
    ['__Type.inputFields', most(types.map((type) => (isInputObjectType(type) ? Object.keys(type.getFields()).length : 0)))],
    ['__Field.args', most(types.flatMap((type) => fieldsOf(type).map((field) => field.args.length)))],
    ['__Directive.args', most(directives.map((directive) => directive.args.length))],
    ['__Directive.locations', most(directives.map((directive) => directive.locations.length))],
  ]);
  // A list the table does not name (a later graphql-js's) counts as the longest of them.
  bounds.set('*', Math.max(...bounds.values()));
  return bounds;
}

function isList(type: GraphQLOutputType): boolean {
  if (type instanceof GraphQLNonNull) return isList(type.ofType);
  return type instanceof GraphQLList;
}

/** What a document's introspection asks for: fields selected (aliases and spreads counted again), and its cost. */
export interface IntrospectionMeasure {
  breadth: number;
  cost: number;
}

const NOTHING: IntrospectionMeasure = { breadth: 0, cost: 0 };
const plus = (a: IntrospectionMeasure, b: IntrospectionMeasure): IntrospectionMeasure => ({ breadth: a.breadth + b.breadth, cost: a.cost + b.cost });

/** Measures the introspection of documents against one schema. */
class IntrospectionMeter {
  private readonly bounds: Map<string, number>;

  constructor(private readonly schema: GraphQLSchema) {
    this.bounds = listBounds(schema);
  }

  /** An operation's introspection: the `__schema` and `__type` fields at its root, with what they select. */
  private operationMeasure(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): IntrospectionMeasure {
    const fragmentMeasures = new Map<string, IntrospectionMeasure>();
    // The root's own selections, fragments included (spreads at the root can hold `__schema` too).
    const visitRoot = (selectionSet: SelectionSetNode, visiting: Set<string>): IntrospectionMeasure => {
      let measure = NOTHING;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const name = selection.name.value;
          if (name !== '__schema' && name !== '__type') continue;
          const type = this.schema.getType(name === '__schema' ? '__Schema' : '__Type')!;
          const inner = selection.selectionSet ? this.selectionMeasure(selection.selectionSet, type, fragments, fragmentMeasures, new Set()) : NOTHING;
          measure = plus(measure, { breadth: 1 + inner.breadth, cost: 1 + inner.cost });
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          measure = plus(measure, visitRoot(selection.selectionSet, visiting));
        } else {
          const fragment = fragments.get(selection.name.value);
          if (!fragment || visiting.has(fragment.name.value)) continue; // a cycle is validation's to report
          measure = plus(measure, visitRoot(fragment.selectionSet, new Set([...visiting, fragment.name.value])));
        }
      }
      return measure;
    };
    return visitRoot(operation.selectionSet, new Set());
  }

  /**
   * What a selection set asks for on a type: 1 per field, and a field's own selection times the
   * most items it can return. A fragment is measured once per document and reused at every spread.
   */
  private selectionMeasure(
    selectionSet: SelectionSetNode,
    type: GraphQLNamedType,
    fragments: Map<string, FragmentDefinitionNode>,
    fragmentMeasures: Map<string, IntrospectionMeasure>,
    visiting: Set<string>,
  ): IntrospectionMeasure {
    let measure = NOTHING;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        measure = plus(measure, { breadth: 1, cost: 1 });
        const field = isObjectType(type) ? type.getFields()[selection.name.value] : undefined;
        if (!field || !selection.selectionSet) continue;
        const items = isList(field.type) ? (this.bounds.get(`${type.name}.${field.name}`) ?? this.bounds.get('*')!) : 1;
        const inner = this.selectionMeasure(selection.selectionSet, getNamedType(field.type), fragments, fragmentMeasures, visiting);
        measure = plus(measure, { breadth: inner.breadth, cost: items * inner.cost });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : type;
        if (on) measure = plus(measure, this.selectionMeasure(selection.selectionSet, on, fragments, fragmentMeasures, visiting));
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || visiting.has(name)) continue;
        if (!fragmentMeasures.has(name)) {
          const on = this.schema.getType(fragment.typeCondition.name.value);
          fragmentMeasures.set(name, on ? this.selectionMeasure(fragment.selectionSet, on, fragments, fragmentMeasures, new Set([...visiting, name])) : NOTHING);
        }
        measure = plus(measure, fragmentMeasures.get(name)!);
      }
    }
    return measure;
  }

  /** A document's introspection: the largest breadth and cost of its operations (one of them runs). */
  documentMeasure(document: DocumentNode): IntrospectionMeasure {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    let breadth = 0;
    let cost = 0;
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const measure = this.operationMeasure(definition, fragments);
      breadth = Math.max(breadth, measure.breadth);
      cost = Math.max(cost, measure.cost);
    }
    return { breadth, cost };
  }
}

const meters = new WeakMap<GraphQLSchema, IntrospectionMeter>();
const measured = new WeakMap<DocumentNode, IntrospectionMeasure>();

/** One meter per schema: its list bounds are reckoned once. */
function meterOf(schema: GraphQLSchema): IntrospectionMeter {
  let meter = meters.get(schema);
  if (!meter) {
    meter = new IntrospectionMeter(schema);
    meters.set(schema, meter);
  }
  return meter;
}

/** graphql-js's full introspection query, every option on: what GraphiQL and schema tools send, and more. */
const FULL_INTROSPECTION = parse(
  getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }),
);

/** The policy for a schema: what its full introspection asks for, and the limits built from it. */
export function introspectionPolicy(schema: GraphQLSchema, enabled: boolean): IntrospectionPolicy {
  const fullQuery = meterOf(schema).documentMeasure(FULL_INTROSPECTION);
  const limits = { breadth: Math.ceil(fullQuery.breadth * LIMITS_OVER_FULL_QUERY), cost: Math.ceil(fullQuery.cost * LIMITS_OVER_FULL_QUERY) };
  return { enabled, fullQuery, limits };
}

/** What a document's introspection asks for, against a schema (tests, docs). */
export function introspectionMeasure(schema: GraphQLSchema, document: DocumentNode): IntrospectionMeasure {
  return meterOf(schema).documentMeasure(document);
}

/**
 * Why a document's introspection is refused, before it is validated any further or run: off
 * (403 forbidden), or past a limit (400 invalid_request, `param` `introspection`); undefined when
 * it may run. Checked first, a refused bomb costs no more than its measure (the specified rules
 * would walk its thousand aliases first).
 */
export function introspectionRefusal(policy: IntrospectionPolicy, schema: GraphQLSchema, document: DocumentNode): GraphQLError | undefined {
  // Yoga parses a document once and keeps its tree: a document sent again is measured once.
  let measure = measured.get(document);
  if (!measure) {
    measure = meterOf(schema).documentMeasure(document);
    measured.set(document, measure);
  }
  if (measure.breadth === 0) return undefined;
  if (!policy.enabled) {
    return graphqlError('forbidden', 'Introspection (__schema, __type) is turned off on this service (ANALYST_INTROSPECTION=off).', { param: 'introspection' });
  }
  for (const kind of ['breadth', 'cost'] as const) {
    if (measure[kind] <= policy.limits[kind]) continue;
    return graphqlError(
      'invalid_request',
      `The query's introspection ${kind} is ${measure[kind]}, above the limit of ${policy.limits[kind]} (the full introspection query's is ${policy.fullQuery[kind]}); ask for the schema once per document. See docs/analyst-graphql.md.`,
      { param: 'introspection' },
    );
  }
  return undefined;
}
