import { z } from 'zod';
import { TEXT_RULE, unstorableTextPath } from '../contract/storableText';
import { ApiError } from './errors';
import { camelCase } from './restSpelling';
import type { Route } from './routes';

/** The keys in camelCase, and those of objects in a list (a batch's orders): one level down, as the schemas are. */
function camelKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelCase(k), Array.isArray(v) ? v.map((item) => (isPlainObject(item) ? camelKeys(item) : item)) : v]));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function validate(schema: z.ZodObject | undefined, input: Record<string, unknown>, where: string): Record<string, unknown> {
  if (!schema) {
    const extra = Object.keys(input)[0];
    if (extra !== undefined) throw new ApiError('invalid_request', `Unknown ${where} parameter '${extra}'.`, { param: extra });
    return {};
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return storableText(parsed.data as Record<string, unknown>, where);
  const issue = parsed.error.issues[0];
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const param = unknownKey ?? issue.path.join('.');
  // zod does not report the value it refused: read it from the input by the issue's path.
  const given = valueAt(input, issue.path);
  const message = unknownKey
    ? `Unknown ${where} parameter '${unknownKey}'.`
    : issue.code === 'invalid_type' && given === undefined
      ? `${param} is required.`
      : issue.code === 'invalid_type' && issue.expected === 'string' && typeof given === 'number'
        ? isDecimalField(schema, issue.path)
          ? `${param} must be a decimal string such as "0.43", not a JSON number: money, prices and quantities are sent as strings, kept exactly (a number may lose digits).`
          : `${param} must be a string, not a JSON number.`
        : `${param || where}: ${issue.message}`;
  throw new ApiError('invalid_request', message, { param: param || undefined });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Whether the field at `path` is one of the routes' decimal strings (their `format: decimal`, gateway/routes/inputs.ts). */
function isDecimalField(schema: z.ZodObject, path: readonly PropertyKey[]): boolean {
  let field: z.ZodType | undefined = schema;
  for (const key of path) {
    field = unwrapped(field);
    if (field instanceof z.ZodObject) field = field.shape[String(key)] as z.ZodType | undefined;
    else if (field instanceof z.ZodArray) field = field.element as z.ZodType;
    else return false;
  }
  return unwrapped(field)?.meta()?.format === 'decimal';
}

/** The schema inside optional, nullable and default wrappers. */
function unwrapped(field: z.ZodType | undefined): z.ZodType | undefined {
  while (field instanceof z.ZodOptional || field instanceof z.ZodNullable || field instanceof z.ZodDefault) field = field.unwrap() as z.ZodType;
  return field;
}

/**
 * Every string of a validated input must be text PostgreSQL stores (no NUL, no unpaired surrogate):
 * refused here, naming the field, rather than failing the core's statement. Checked after the
 * schema, whose output is shallow and of known fields.
 */
function storableText(input: Record<string, unknown>, where: string): Record<string, unknown> {
  const param = unstorableTextPath(input);
  if (param !== undefined) throw new ApiError('invalid_request', `${param || where}: ${TEXT_RULE}`, { param: param || undefined });
  return input;
}

/** The operation's variables for one request: path and query by name, then the body. */
export function toVariables(
  route: Route,
  request: { params: Record<string, string>; query: Record<string, unknown>; body: Record<string, unknown> },
): Record<string, unknown> {
  for (const [name, value] of Object.entries(request.query)) {
    if (Array.isArray(value)) throw new ApiError('invalid_request', `Query parameter '${name}' is given more than once.`, { param: name });
  }
  const variables = {
    ...camelKeys(validate(route.params, request.params, 'path')),
    ...camelKeys(validate(route.query, request.query, 'query')),
  };
  if (route.method === 'GET' || route.method === 'DELETE') return variables;
  const validated = validate(route.body, request.body, 'body');
  const body = route.bodyVerbatim ? validated : camelKeys(validated);
  return route.bodyVariable ? { ...variables, [route.bodyVariable]: body } : { ...variables, ...body };
}
