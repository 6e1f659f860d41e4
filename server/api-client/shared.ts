/**
 * Pure helpers shared with the front ends. The renderer and the CLI import nothing
 * of server/ but server/api-client (eslint.config.js); what they must do exactly as
 * the engine does comes from the engine's own modules through this file. Each module
 * re-exported here is pure: no `node:` import, no I/O, no state, since the renderer
 * bundles it for the browser (tests/unit/architecture/api-client-browser-safe.test.ts
 * follows every import from here). Enums a front end lists come from the OpenAPI
 * document's generated types instead (api-paths.generated.ts), except the few the
 * CLI needs as values for its flags.
 */

/** Bidi controls shown as `⟨U+202E⟩` markers (the UI, the CLI's escaping, desktop notices). */
export { BIDI_CONTROLS, markBidiControls, splitBidiControls } from '../support/bidi-controls.ts';
/** C0/C1 controls a terminal would act on. */
export { TERMINAL_CONTROLS } from '../support/control-chars.ts';
/** JSON nesting measured without recursing, before a view or a diff recurses. */
export { jsonShape } from '../support/json-shape.ts';
/** A word for a POSIX shell, quoted only when it must be. */
export { shellArg } from '../support/shell-quote.ts';
/** Whether a string is an absolute http(s) URL, as replay targets and forward URLs must be. */
export { isAbsoluteHttpUrl } from '../support/absolute-url.ts';
/** The API contract's version this client speaks (`GET /api/version`'s `api`). */
export { API_VERSION } from '../support/api-version.ts';

// The CLI's flag values (commander's `.choices()`, limits in --help).
export { LOG_STATUSES, type LogStatus } from '../logs/log-status.ts';
export { MAX_DELETE_IDS } from '../logs/log-types.ts';
export { EXPORT_FORMATS, type ExportFormat } from '../export/export-types.ts';
export { MAX_TIMEOUT_MS, REPLAY_METHODS } from '../replay/replay-limits.ts';
