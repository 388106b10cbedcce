import { createServer } from 'node:net';
/** A small JSON client for tests, over real HTTP (Node's fetch). */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await textOf(response);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // left as text: the assertion will show it
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** The body's text; of an event stream, which never ends by itself, its first lines (then it is closed). */
async function textOf(response: Response): Promise<string> {
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) return response.text();
  const reader = response.body.getReader();
  const first = await reader.read();
  await reader.cancel();
  return first.done ? '' : new TextDecoder().decode(first.value);
}

/** The body of a 200 answer; anything else fails naming `what`, with the status and the body. */
export function ok<T = any>(response: ApiResponse<T>, what: string): T {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Asserts the error envelope and returns the error. */
export function envelopeOf(response: ApiResponse): { code: string; message: string; param?: string; request_id: string } {
  const error = response.body?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') {
    throw new Error(`not an error envelope (${response.status}): ${JSON.stringify(response.body)}`);
  }
  if (error.request_id !== response.headers.get('x-request-id')) {
    throw new Error(`request_id ${error.request_id} differs from X-Request-Id ${response.headers.get('x-request-id')}`);
  }
  return error;
}

/** A loopback port nothing listens on (opened, then closed): a peer that refuses the connection. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts something on a free loopback port, on another one if it was taken meanwhile (three tries): the port it runs on. */
export async function startOnFreePort(start: (port: number) => Promise<void>, attempts = 3): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await closedPort();
    try {
      await start(port);
      return port;
    } catch (error) {
      if (attempt === attempts) throw error;
    }
  }
}
