import fs from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { ApiError } from './errors';

/** Where `npm run build:dashboard` (run by `npm install`) writes the page. */
export const DASHBOARD_DIST = path.resolve(__dirname, '../dashboard/dist');
export const DASHBOARD_PATH = '/dashboard';

/**
 * Only the page's own files: no inline script or style, no other origin, not framed. The page
 * reaches nothing but this gateway.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface PageFile {
  body: Buffer;
  /** The file's extension: Koa gives the Content-Type (mime-types). */
  extension: string;
  /** Vite names assets by their content's hash: they never change under the same name. */
  immutable: boolean;
}

/** The built page, read once into memory (a few hundred kB): path under /dashboard/ to file. */
function loadBuiltPage(dir: string): Map<string, PageFile> {
  const files = new Map<string, PageFile>();
  if (!fs.existsSync(path.join(dir, 'index.html'))) return files;
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const full = path.join(dir, name);
    if (!fs.statSync(full).isFile()) continue;
    const urlPath = name.split(path.sep).join('/');
    files.set(urlPath, {
      body: fs.readFileSync(full),
      extension: path.extname(name),
      immutable: urlPath.startsWith('assets/'),
    });
  }
  return files;
}

/**
 * GET /dashboard/… serves the single-page app: its files by name, and index.html for any other
 * path without an extension (the page's own routes). `/` and `/dashboard` lead to `/dashboard/`.
 */
export function registerDashboardPage(router: Router, dir = DASHBOARD_DIST): void {
  const files = loadBuiltPage(dir);
  router.get('/', (ctx) => ctx.redirect(`${DASHBOARD_PATH}/`));
  router.get(`${DASHBOARD_PATH}{/*rest}`, (ctx) => {
    if (ctx.path === DASHBOARD_PATH) return ctx.redirect(`${DASHBOARD_PATH}/`);
    const rest = ctx.path.slice(DASHBOARD_PATH.length + 1);
    const index = files.get('index.html');
    if (!index) {
      throw new ApiError('not_found', 'The dashboard is not built on this server: run `npm run build:dashboard`.');
    }
    const file = files.get(rest) ?? (path.extname(rest) === '' ? index : undefined);
    if (!file) throw new ApiError('not_found', `No file ${ctx.path}.`);
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = file.extension;
    ctx.body = file.body;
  });
}
