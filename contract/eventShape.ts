/**
 * An event as REST shows it. The core's Event has one field per kind of object (a GraphQL union
 * cannot carry the resources' fragments: their fields of one name differ in type), exactly one set:
 * the one its `object` names. REST gives that one as `data`, and not the others
 * (contract/operations/fragments/event.graphql selects them under their `object` names).
 */
export const EVENT_OBJECT_KEYS = [
  'order', 'fill', 'settlement', 'market', 'complex_order', 'child_order', 'dead_mans_switch', 'credential', 'workspace', 'risk_limits', 'risk_limit_breach',
] as const;

type Item = Record<string, unknown> & { object: string };

/** One event of the operation's answer, as REST shows it: its object as `data`. */
export function restEvent(item: Item): Record<string, unknown> {
  const event: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) if (!(EVENT_OBJECT_KEYS as readonly string[]).includes(key)) event[key] = value;
  event.data = item[item.object] ?? null;
  return event;
}

/** A page of events (ListEvents' answer) as REST shows it. */
export function restEventPage<P extends { data: Item[] }>(page: P): P {
  return { ...page, data: page.data.map(restEvent) };
}

type JsonSchema = Record<string, any>;

/** The OpenAPI schema of an event (the EventFields fragment's): the object fields become `data`, one of them. */
export function restEventSchema(fragment: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const objects: JsonSchema[] = [];
  for (const [key, schema] of Object.entries(fragment.properties as Record<string, JsonSchema>)) {
    if ((EVENT_OBJECT_KEYS as readonly string[]).includes(key)) objects.push(withoutNull(schema));
    else properties[key] = schema;
  }
  properties.data = { description: 'The object the event is about (named by `object`), in the shape of its own resource, as the change left it.', oneOf: objects };
  return {
    ...fragment,
    properties,
    required: [...(fragment.required as string[] ?? []).filter((key) => !(EVENT_OBJECT_KEYS as readonly string[]).includes(key)), 'data'],
  };
}

/** A nullable field's schema without its null (an event's object is never null). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) {
    const rest = schema.anyOf.filter((s: JsonSchema) => s.type !== 'null');
    return rest.length === 1 ? rest[0] : { anyOf: rest };
  }
  if (Array.isArray(schema.oneOf)) return { oneOf: schema.oneOf.filter((s: JsonSchema) => s.type !== 'null') };
  if (Array.isArray(schema.type)) return { ...schema, type: schema.type.filter((t: string) => t !== 'null') };
  return schema;
}
