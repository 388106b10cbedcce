import { call, type ApiResponse } from './http';

/** A signed-in dashboard page, as far as the API sees it: its cookie and its CSRF token. */
export interface DashboardSession {
  cookie: string;
  csrf: string;
  body: any;
}

/** `mk_session=<value>` from a response's Set-Cookie, or undefined. */
export function sessionCookieOf(response: ApiResponse): string | undefined {
  const header = response.headers.getSetCookie().find((c) => c.startsWith('mk_session='));
  return header?.split(';')[0];
}

export async function signIn(baseUrl: string, email: string, password: string, headers: Record<string, string> = {}): Promise<DashboardSession> {
  const response = await call(baseUrl, 'POST', '/v1/session', { body: { email, password }, headers });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${JSON.stringify(response.body)}`);
  const cookie = sessionCookieOf(response);
  if (!cookie) throw new Error('sign-in set no session cookie');
  return { cookie, csrf: response.body.csrf_token, body: response.body };
}

/** A request of the signed-in page: the cookie always, the CSRF token unless told otherwise. */
export function asPage(
  baseUrl: string,
  session: DashboardSession,
  method: string,
  path: string,
  options: { body?: unknown; environment?: string; csrf?: string | null; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { cookie: session.cookie, ...options.headers };
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  if (csrf !== null) headers['x-csrf-token'] = csrf;
  if (options.environment) headers['x-environment'] = options.environment;
  return call(baseUrl, method, path, { body: options.body, headers });
}
