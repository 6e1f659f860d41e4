import express, { type NextFunction, type Request, type Response } from 'express';
import type { AccountContext } from '../auth/account-context.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { SESSION_REQUEST_HEADER } from '../auth/session-cookie.ts';
import { NotFoundError, UnsupportedMediaTypeError } from '../errors/app-errors.ts';
import { requestContext, type ReportFault } from '../support/logger-faults.ts';
import { sendData, sendError, sendJson, sendText } from './envelope.ts';
import { routeActs, type RouteSpec } from './route.ts';
import { rendererFiles } from './renderer-files.ts';
import { parseRequestPart } from './validate.ts';

export interface ApiAppDeps {
  routes: RouteSpec[];
  auth: Authenticator;
  /** Logs an engine fault and returns its error id (a 500 carries it). */
  reportFault: ReportFault;
  /** The built renderer's directory, served at `/` (null: API only). */
  rendererDir: string | null;
}

const NO_ACCOUNT: AccountContext = Object.freeze({ id: '', name: '' });

/** The Express app behind the private listener: `/api/*` and the UI. */
export function createApiApp(deps: ApiAppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Only operations that declare a body read one: elsewhere a body is ignored,
  // so every status an operation can answer is the one its document lists.
  const readBody = [requireJsonBodies, express.json({ limit: '1mb' })];

  for (const spec of deps.routes) {
    app[spec.method](spec.path, ...(spec.body ? readBody : []), (req: Request, res: Response, next: NextFunction) => {
      run(spec, deps, req, res).catch(next);
    });
  }

  if (deps.rendererDir !== null) app.use(rendererFiles(deps.rendererDir));
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new NotFoundError(`No route for ${req.method} ${req.path}.`, 'ROUTE_NOT_FOUND'));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendError(res, err, { report: (e) => deps.reportFault(e, requestContext(req, 'api')) });
  });
  return app;
}

async function run(spec: RouteSpec, deps: ApiAppDeps, req: Request, res: Response): Promise<void> {
  const account =
    spec.auth === false
      ? NO_ACCOUNT
      : await deps.auth.authenticate({
          acts: routeActs(spec),
          authorization: req.headers.authorization,
          cookie: req.headers.cookie,
          requestHeader: req.get(SESSION_REQUEST_HEADER),
        });
  const params = spec.params ? parseRequestPart(spec.params, req.params, 'path') : {};
  const query = spec.query ? parseRequestPart(spec.query, req.query, 'query') : {};
  const rawBody: unknown = req.body;
  const body = spec.body
    ? parseRequestPart(spec.body, rawBody === undefined && spec.bodyOptional ? {} : rawBody, 'body')
    : undefined;
  const result = await spec.handler({ params, query, body, account, req, res });
  if (spec.kind === 'stream' || result === undefined) return;
  const status = result.status ?? 200;
  if (result.text !== undefined) {
    sendText(res, status, result.text);
    return;
  }
  if (spec.raw) {
    sendJson(res, status, result.data);
    return;
  }
  sendData(res, result.data, { status });
}

/** A body that is not JSON is a 415 naming what was sent, not a confusing "field is required". */
function requireJsonBodies(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    next(
      new UnsupportedMediaTypeError(
        `Request bodies must be JSON with Content-Type: application/json (got ${req.headers['content-type'] ?? 'no Content-Type'}).`,
      ),
    );
    return;
  }
  next();
}
