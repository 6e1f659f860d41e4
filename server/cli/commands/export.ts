import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { EXPORT_FORMATS, type ExportFormat } from '../../api-client/shared.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { httpUrlArg } from '../option-parsers.ts';
import { printJson } from '../render.ts';
import { escapeControls } from '../terminal-safe.ts';

interface ExportOptions extends ClientOptions {
  format: ExportFormat;
  out?: string;
  redact?: boolean;
  target?: string;
}

export function registerExport(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('export')
      .description('Export a delivery as a cURL command, raw HTTP, JSON or HAR, to stdout or a file')
      .argument('<logId>', 'log id (log_...)')
      .addOption(
        new Option('--format <format>', `one of: ${EXPORT_FORMATS.join(', ')} (required)`)
          .choices(EXPORT_FORMATS)
          .makeOptionMandatory(),
      )
      .option('--out <file>', 'write the file here instead of stdout')
      .option('--redact', 'hide credential and signature header values')
      .option('--target <url>', 'the URL written into curl and http (default: the local receiver URL)', httpUrlArg),
  ).action((logId: string, opts: ExportOptions) => run(() => exportLog(logId, opts, io)));
}

async function exportLog(logId: string, opts: ExportOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const file = await api.get('/api/webhooks/logs/{logId}/export', {
    params: {
      path: { logId },
      query: { format: opts.format, redact: opts.redact === true ? 'true' : undefined, target: opts.target },
    },
  });
  if (opts.json) {
    printJson(io, file);
    return EXIT.ok;
  }
  // base64 only when the file's bytes are not text (an http export of a binary body).
  const bytes =
    file.contentEncoding === 'base64' ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
  if (opts.out !== undefined) {
    const path = resolve(opts.out);
    await writeFile(path, bytes);
    io.err(`Wrote ${path} (${file.format}, ${bytes.length} bytes; suggested name ${file.filename}).`);
    return EXIT.ok;
  }
  if (io.isTTY === true) {
    // A cURL export never holds control characters (curl-builder.ts), so what is shown can be pasted;
    // raw HTTP and JSON can, and a terminal would act on them.
    // A binary http export is shown as UTF-8 text (invalid bytes as U+FFFD).
    const text = file.contentEncoding === 'base64' ? bytes.toString('utf8') : file.content;
    const shown = escapeControls(text);
    (io.write ?? io.out)(shown);
    if (shown !== file.content)
      io.err('note: control characters are shown escaped; use --out FILE or a pipe for the exact file.');
    return EXIT.ok;
  }
  if (io.write) io.write(bytes);
  else io.out(file.content);
  return EXIT.ok;
}
