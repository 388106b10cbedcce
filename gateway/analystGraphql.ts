import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { documentProblem } from '../contract/documentLimits';
import { ANALYST_GRAPHQL_PATH } from '../contract/endpoints';
import type { Principal } from '../contract/principal';
import { TEXT_RULE, unstorableTextPath } from '../contract/storableText';
import { sha256Hex } from '../contract/secrets';
import { SESSION_COOKIE } from '../contract/sessionTokens';
import { ConcurrencyGate } from './concurrencyGate';
import type { CoreClient, CoreResponse, CoreStream } from './coreClient';
import { environmentOf, sessionIdentity } from './dashboardSession';
import { ApiError, upstreamUnavailable } from './errors';
import { refusalsDelayed } from './refusalDelay';
import { answerAsEventStream } from './eventStreamAnswer';
import { bearerAuth, type AuthDeps, type Authenticated } from './middleware/authenticate';
import { jsonBody } from './middleware/jsonBody';
import type { StreamAdmission } from './streamAdmission';

/** What the analysts' subscriptions need at the edge. */
export interface AnalystSubscriptions {
  /** The per-credential limit of open streams (EVENT_STREAMS_PER_KEY), shared with GET /v1/events/stream. */
  admission: StreamAdmission;
  /** How long one lasts before it is ended, for the client to subscribe again with its credential checked anew (EVENT_STREAM_MAX_AGE_MS). */
  maxAgeMs: number;
  /**
   * How often an open one's credential is looked up again (EVENT_STREAM_HEARTBEAT_MS): a session
   * signed out (here or everywhere) or a token revoked ends its subscriptions within this time, as
   * no broadcast tells the gateway of either.
   */
  recheckMs: number;
}

/** What bounds the analysts' documents at the edge, besides the core's own limits. */
export interface AnalystQueries {
  /** Documents one credential may send a second (ANALYST_RATE_LIMIT), counted before its lookup. */
  ratePerCredential: number;
  /** Documents one credential may have running at once on this gateway (ANALYST_CONCURRENCY_PER_CREDENTIAL); subscriptions are counted by `admission` instead. */
  concurrencyPerCredential: number;
  /** The largest answer passed on (ANALYST_MAX_ANSWER_BYTES); a larger one is refused. */
  maxAnswerBytes: number;
}

/** The limits applied to the credential a request presents, before it is looked up (middleware/rateLimit.ts). */
export interface BeforeLookup {
  /** The per-second limit keyed by `ctx.state.presented`. */
  rateLimit: Middleware;
}

/** GraphiQL, bundled in @graphql-yoga/render-graphiql: nothing is fetched from a CDN. */
const GRAPHIQL_PAGE = renderGraphiQL({
  title: 'Prediction markets — analyst GraphQL',
  endpoint: ANALYST_GRAPHQL_PATH,
  // Header values must be Latin-1 for fetch: no placeholder with an ellipsis here.
  headers: JSON.stringify({ 'X-Environment': 'test' }),
  defaultQuery: [
    '# Signed in to the dashboard in this browser? Queries just work (the session reads only).',
    '# Otherwise add "Authorization": "Bearer mk_dash_..." under Headers below.',
    '# X-Environment chooses test or live.',
    '{',
    '  workspace { id name tradingHalted }',
    '  subaccounts { data { id name cashBalance } }',
    '}',
    '',
  ].join('\n'),
});

/**
 * GraphiQL's page is one HTML file with its script and style inline: scripts only that one, by its
 * SHA-256; styles inline (the editor sets them at run time); its editor's workers from blob: URLs
 * it makes itself; requests to this origin only; never framed.
 */
const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${inlineScriptHashes(GRAPHIQL_PAGE)}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function inlineScriptHashes(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  return hashes.join(' ');
}

type AnalystPrincipal = Extract<Principal, { kind: 'analyst' }>;

interface GraphQLBody {
  errors?: { extensions?: Record<string, unknown> }[];
}

/**
 * The analysts' GraphQL at /analyst/graphql (docs/analyst-graphql.md), an edge like every REST
 * route: the request id, the access log, the error envelope for request-level failures, the
 * credential (a dashboard token with its access, or the dashboard's session cookie as a read-only
 * analyst, in the environment of X-Environment) with its failures counted per client address, the
 * credential's rate limit, a bounded JSON body.
 * The document goes to the core's analyst endpoint with an `analyst` principal signed like every
 * other; the core's GraphQL answer comes back as it is, each error carrying the request id.
 * Asked for as Server-Sent Events (`Accept: text/event-stream`: a subscription), the answer streams
 * through as the core sends it, counted against the credential's limit of open streams.
 */
export function registerAnalystGraphql(
  router: Router,
  deps: AuthDeps,
  limit: Middleware,
  countingFailures: (authenticate: Middleware) => Middleware,
  subscriptions: AnalystSubscriptions,
  queries: AnalystQueries,
  beforeLookup: BeforeLookup,
): void {
  const running = new ConcurrencyGate(queries.concurrencyPerCredential);
  const answer = (ctx: Context, request: ForwardedRequest) =>
    asksForStream(ctx) ? stream(ctx, deps, subscriptions, request) : forward(ctx, deps.core, queries.maxAnswerBytes, request);
  const authenticated = countingFailures(async (ctx, next) => {
    ctx.state.auth = await authenticateAnalyst(ctx, deps);
    return next();
  });
  /**
   * Before the credential is looked up (analysts' credentials are looked up on every request):
   * its rate limit, and for a document answered as JSON its place among the credential's documents
   * running here (429 rate_limited at once past ANALYST_CONCURRENCY_PER_CREDENTIAL, no queue), both
   * keyed by the credential as presented. A flood of one credential's requests is refused for a
   * hash and a counter each, and its documents cannot take the event loop from other credentials;
   * the refusals are answered REFUSAL_DELAY_MS late (refusalDelay.ts).
   */
  const limitedAsPresented: Middleware = (ctx, next) => {
    const presented = presentedCredential(ctx);
    if (presented === undefined) return next(); // nothing to count: authentication answers 401
    ctx.state.presented = presented;
    // Every 429 of this endpoint (these limits, the credential's rate, its streams') is answered late.
    return refusalsDelayed(() => beforeLookup.rateLimit(ctx, async () => {
      if (asksForStream(ctx)) return next();
      const leave = running.enter(presented);
      if (!leave) {
        throw new ApiError('rate_limited', `At most ${running.max} analyst queries may run at once per credential; wait for one to be answered.`, { headers: { 'Retry-After': '1' } });
      }
      try {
        await next();
      } finally {
        leave();
      }
    }));
  };
  router.get(ANALYST_GRAPHQL_PATH, graphiql, limitedAsPresented, authenticated, limit, (ctx) => {
    refuseUnsafeParams(ctx.query);
    return answer(ctx, { method: 'GET', path: ctx.url, headers: {} });
  });
  router.post(ANALYST_GRAPHQL_PATH, limitedAsPresented, authenticated, limit, jsonBody(), (ctx) => {
    refuseUnsafeParams(ctx.state.body as Record<string, unknown>);
    return answer(ctx, { method: 'POST', path: ANALYST_GRAPHQL_PATH, body: JSON.stringify(ctx.state.body), headers: { 'content-type': 'application/json' } });
  });
}

type ForwardedRequest = { method: 'GET' | 'POST'; path: string; body?: string; headers: Record<string, string> };

/**
 * At the edge, what the core would refuse before parsing anyway (contract/documentLimits.ts): a
 * document nested too deep, and any string PostgreSQL cannot store, in the document or elsewhere
 * in the request (`variables.name`, `operationName`). Answered 400 invalid_request in the envelope.
 */
function refuseUnsafeParams(params: Record<string, unknown>): void {
  const problem = typeof params.query === 'string' ? documentProblem(params.query) : undefined;
  if (problem) throw new ApiError('invalid_request', problem, { param: 'query' });
  const param = unstorableTextPath(params);
  if (param !== undefined) throw new ApiError('invalid_request', `${param} ${TEXT_RULE}.`, { param });
}

/** A browser's page view (GET, asking for HTML) gets GraphiQL, without credentials: it holds no data. */
const graphiql: Middleware = (ctx, next) => {
  if (!ctx.get('Accept').includes('text/html')) return next();
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', GRAPHIQL_CONTENT_SECURITY_POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html';
  ctx.body = GRAPHIQL_PAGE;
};

/**
 * With an Authorization header, a dashboard token (its own access) and nothing else; without one,
 * the dashboard's session cookie, which only reads (so no CSRF token is needed: a forged request
 * can change nothing). The environment is checked first, as on the dashboard routes.
 */
async function authenticateAnalyst(ctx: Context, deps: AuthDeps): Promise<Authenticated> {
  const environment = environmentOf(ctx);
  const authorization = ctx.get('Authorization');
  if (authorization === '' && ctx.cookies.get(SESSION_COOKIE)) {
    const session = await sessionIdentity(ctx, deps.core);
    const principal: AnalystPrincipal = { kind: 'analyst', workspaceId: session.workspace_id, credentialId: session.session_id, environment, access: 'read_only' };
    return { id: session.session_id, principal, rateLimit: deps.dashboardRateLimit };
  }
  if (authorization === '') {
    throw new ApiError('unauthorized', 'Sign in to the dashboard in this browser, or send a dashboard token: Authorization: Bearer mk_dash_…');
  }
  const token = await bearerAuth('dashboard', authorization, ctx, deps);
  if (token.principal.kind !== 'dashboard') throw new ApiError('unauthorized', 'The dashboard token is unknown or revoked.');
  const { workspaceId, tokenId, access } = token.principal;
  return { ...token, principal: { kind: 'analyst', workspaceId, credentialId: tokenId, environment, access } };
}

const asksForStream = (ctx: Context) => ctx.get('Accept').includes('text/event-stream');

/** The credential a request presents, as the SHA-256 of what it sent (a bearer token, else the session cookie), or undefined. */
function presentedCredential(ctx: Context): string | undefined {
  const authorization = ctx.get('Authorization');
  if (authorization !== '') return sha256Hex(`authorization:${authorization}`);
  const session = ctx.cookies.get(SESSION_COOKIE);
  return session ? sha256Hex(`session:${session}`) : undefined;
}

/** A document answered as JSON, passed on only when the answer is within the size limit (400 invalid_request). */
async function forward(ctx: Context, core: CoreClient, maxAnswerBytes: number, request: ForwardedRequest) {
  const { principal } = ctx.state.auth as Authenticated;
  const response = await core.send(request, principal);
  const bytes = Buffer.byteLength(response.text);
  if (bytes > maxAnswerBytes) {
    throw new ApiError('invalid_request', `The answer is ${bytes} bytes, above the limit of ${maxAnswerBytes}; ask for less (smaller limits, fewer fields or aliases).`, { param: 'query' });
  }
  respond(ctx, response);
}

/** The core's JSON answer, each error carrying the request id. */
function respond(ctx: Context, response: CoreResponse) {
  let body: GraphQLBody;
  try {
    body = JSON.parse(response.text) as GraphQLBody;
  } catch {
    throw upstreamUnavailable();
  }
  withRequestId(body, ctx.state.requestId as string);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = response.status;
  ctx.body = body;
  ctx.type = response.contentType || 'application/json';
}

function withRequestId(body: GraphQLBody, requestId: string): GraphQLBody {
  for (const error of body.errors ?? []) error.extensions = { ...error.extensions, request_id: requestId };
  return body;
}

/**
 * A subscription (or any document asked for as Server-Sent Events): admitted against the
 * credential's limit (429 rate_limited in the envelope past it), then the core's event stream
 * passed on as it arrives, each result's errors carrying the request id. It ends when the client
 * leaves, when the core ends it, when its time is up (the client subscribes again, its credential
 * checked anew), when its credential no longer authenticates (looked up every `recheckMs`) or when
 * the gateway shuts down; its place is freed then.
 * An answer that is no stream (the core refused the request as a whole) is answered as JSON.
 */
async function stream(ctx: Context, deps: AuthDeps, { admission, maxAgeMs, recheckMs }: AnalystSubscriptions, request: ForwardedRequest) {
  const { core } = deps;
  const { id, principal } = ctx.state.auth as Authenticated & { principal: AnalystPrincipal };
  const cancel = new AbortController();
  let end = () => cancel.abort();
  const release = await admission.admit({ credentialId: id, workspaceId: principal.workspaceId }, () => end());
  let upstream: CoreStream;
  try {
    upstream = await core.stream({ ...request, headers: { ...request.headers, accept: 'text/event-stream' } }, principal, cancel.signal);
  } catch (error) {
    release();
    throw error;
  }
  if (!upstream.contentType.startsWith('text/event-stream')) {
    release();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of upstream.body) chunks.push(chunk as Buffer);
    } catch {
      throw upstreamUnavailable();
    }
    return respond(ctx, { status: upstream.status, contentType: upstream.contentType, text: Buffer.concat(chunks).toString('utf8') });
  }
  const body = requestIdsOnErrors(ctx.state.requestId as string);
  const maxAge = setTimeout(() => end(), maxAgeMs);
  const recheck = setInterval(() => {
    authenticateAnalyst(ctx, deps).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) end(); // a core that is away ends nothing
    });
  }, recheckMs);
  // Ended from here: the client gets the end of a stream it can subscribe again after; the core's side is cancelled.
  end = () => {
    upstream.body.unpipe(body);
    body.end();
  };
  upstream.body.on('error', () => body.end());
  body.on('close', () => {
    clearTimeout(maxAge);
    clearInterval(recheck);
    cancel.abort();
    upstream.body.destroy();
    release();
  });
  upstream.body.pipe(body);
  answerAsEventStream(ctx, body, upstream.status);
}

/**
 * The core's Server-Sent Events with the request id on every error, as on a JSON answer. Yoga
 * writes each result as one `data:` line of JSON, so the stream is rewritten line by line.
 */
function requestIdsOnErrors(requestId: string): Transform {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const rewrite = (line: string) => {
    if (!line.startsWith('data: {') || !line.includes('"errors"')) return line;
    try {
      return `data: ${JSON.stringify(withRequestId(JSON.parse(line.slice('data: '.length)) as GraphQLBody, requestId))}`;
    } catch {
      return line;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop()!;
      done(null, lines.map((line) => `${rewrite(line)}\n`).join(''));
    },
    flush(done) {
      done(null, partial + decoder.end());
    },
  });
}
