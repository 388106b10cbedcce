import type { z } from 'zod';
import { TEXT_RULE, unstorableTextPath } from '../contract/storableText';
import { ApiError } from './errors';
import { camelCase } from './restSpelling';
import type { Route } from './routes';

function camelKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelCase(k), v]));
}

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
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  const message = unknownKey
    ? `Unknown ${where} parameter '${unknownKey}'.`
    : missing
      ? `${param} is required.`
      : `${param || where}: ${issue.message}`;
  throw new ApiError('invalid_request', message, { param: param || undefined });
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
