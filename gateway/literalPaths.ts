import type { Middleware } from 'koa';
import { ApiError } from './errors';
import type { Route } from './routes';

/**
 * A literal path that a parametrised one also matches (`/v1/complex_orders/preview` and
 * `/v1/complex_orders/{id}`) belongs to its literal routes alone, for every method: GET, DELETE
 * or OPTIONS on `preview` must not read `preview` as an id. The router would run the `{id}` route
 * for the methods the literal path lacks (and list them in Allow), so this runs before it and
 * answers them as for any path: 405 method_not_allowed with Allow, and OPTIONS with Allow.
 */
export function literalPaths(routes: Route[]): Middleware {
  const allowed = shadowedLiteralPaths(routes);
  return async (ctx, next) => {
    // Matched as the router matches: without regard to case, a trailing slash optional.
    const methods = allowed.get(ctx.path.toLowerCase().replace(/\/$/, ''));
    if (!methods || methods.includes(ctx.method) || (ctx.method === 'HEAD' && methods.includes('GET'))) return next();
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.set('Allow', allow);
      ctx.body = '';
      return;
    }
    throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}.`, { headers: { Allow: allow } });
  };
}

/** Each literal path that some parametrised route path also matches, with the methods of its own routes. */
export function shadowedLiteralPaths(routes: Route[]): Map<string, string[]> {
  const matches = (pattern: string, path: string) => {
    const a = pattern.split('/');
    const b = path.split('/');
    return a.length === b.length && a.every((segment, i) => segment === b[i] || /^\{\w+\}$/.test(segment));
  };
  const shadowed = new Map<string, string[]>();
  for (const route of routes) {
    if (route.path.includes('{')) continue;
    if (!routes.some((other) => other.path.includes('{') && matches(other.path, route.path))) continue;
    shadowed.set(route.path, [...(shadowed.get(route.path) ?? []), route.method]);
  }
  return shadowed;
}
