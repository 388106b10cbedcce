import getRawBody from 'raw-body';
import type { Middleware } from 'koa';
import { JSON_NESTING_RULE, tooDeepJsonText } from '../../contract/jsonLimits';
import { ApiError } from '../errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON object body, bounded in size and nesting (contract/jsonLimits.ts: refused before
 * parsing, naming the top-level field that nests too deep). A body must be `application/json`; an
 * empty body is an empty object. The parsed value is left in ctx.state.body for the route's schema
 * to validate.
 */
export function jsonBody(): Middleware {
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (!hasBody) {
      ctx.state.body = {};
      return next();
    }
    if (!ctx.is('application/json')) {
      throw new ApiError('unsupported_media_type', 'The request body must be JSON, sent with Content-Type: application/json.');
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, encoding: 'utf8', length: ctx.get('Content-Length') || undefined });
    } catch (error) {
      if ((error as { type?: string }).type === 'entity.too.large') {
        throw new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
      }
      throw new ApiError('invalid_request', 'The request body could not be read.');
    }
    if (text.trim() === '') {
      ctx.state.body = {};
      return next();
    }
    const deep = tooDeepJsonText(text);
    if (deep !== undefined) throw new ApiError('invalid_request', `${deep || 'The body'} ${JSON_NESTING_RULE}.`, { param: deep || undefined });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError('invalid_json', 'The request body is not valid JSON.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ApiError('invalid_request', 'The request body must be a JSON object.');
    }
    ctx.state.body = value;
    return next();
  };
}
