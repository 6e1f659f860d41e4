import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';

/**
 * What the UI's pages may load: only the engine's own origin. No inline script
 * or style element, no eval, no remote origin, no framing. React sets styles
 * through the CSSOM, which `style-src 'self'` allows.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', RENDERER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hookscope</title></head>
<body><h1>The Hookscope UI is not built</h1><p>Run <code>npm run build:renderer</code> (<code>npm start</code> does it for you), then reload.
The API and the CLI work without it.</p></body></html>`;

/**
 * The built renderer (renderer/dist) at the API origin, for GET and HEAD of any
 * path outside /api. Same origin as the API, so the UI needs no CORS; the Host
 * check in front of the listener applies to it as to the API. Built assets carry
 * a content hash in their names and are cached for good; index.html never is.
 */
export function rendererFiles(dir: string): express.Handler {
  const files = express.static(dir, {
    index: false,
    fallthrough: true,
    setHeaders: (res, path) => {
      securityHeaders(res);
      res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store');
    },
  });
  const index = join(dir, 'index.html');
  return (req: Request, res: Response, next: NextFunction): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/') || req.path === '/api') {
      next();
      return;
    }
    if (req.path !== '/') {
      files(req, res, next);
      return;
    }
    securityHeaders(res);
    res.setHeader('Cache-Control', 'no-store');
    if (!existsSync(index)) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    res.sendFile(index);
  };
}
