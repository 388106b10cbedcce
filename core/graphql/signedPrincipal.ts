import type http from 'node:http';
import { statusOf } from '../../contract/errors';
import { PRINCIPAL_HEADER, verifyPrincipal, type Principal } from '../../contract/principal';
import { graphqlError } from './errorMasking';

const MESSAGE = 'A valid signed principal is required.';

/** The principal a request to the core carries, signed by a gateway with the internal secret; else 401. */
export function signedPrincipalOf(request: Request, internalSecret: string): Principal {
  const principal = verifyPrincipal(request.headers.get(PRINCIPAL_HEADER), internalSecret);
  // A webhook endpoint's principal is the core's own, for rendering its events in-process
  // (eventRendering.ts): never one a request may carry.
  if (!principal || principal.kind === 'webhook') throw graphqlError('unauthorized', MESSAGE);
  return principal;
}

/**
 * The core's HTTP listener lets nothing through without a valid signed principal, whatever the
 * path or method (GraphiQL, an unknown path): an unsigned, forged, altered or stale principal gets
 * 401 before any endpoint sees the request. Only the operator's three paths (/healthz, /readyz,
 * /metrics) are answered before it, by core/ops/coreOps.ts: probes and scrapers carry no principal.
 */
export function requireSignedPrincipal(internalSecret: string, next: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const header = req.headers[PRINCIPAL_HEADER];
    const principal = typeof header === 'string' ? verifyPrincipal(header, internalSecret) : undefined;
    if (principal && principal.kind !== 'webhook') return next(req, res);
    res.writeHead(statusOf('unauthorized'), { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ errors: [{ message: MESSAGE, extensions: { code: 'unauthorized' } }] }));
  };
}
