import type { LlmConfig } from '../config/config.ts';

export type { LlmConfig };

export const DEFAULT_LLM_TIMEOUT_MS = 20_000;

export type LlmAnswer = { ok: true; text: string } | { ok: false; error: string };

/** `.../chat/completions` as given; otherwise `/v1/chat/completions` on that base. */
export function completionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(trimmed)) return trimmed;
  return /\/v1$/.test(trimmed) ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`;
}

/**
 * Asks the model for prose. Never throws: any failure (refused, timeout, bad
 * status, unexpected JSON) comes back as a sentence, so the rules stand alone.
 */
export async function askLlm(config: LlmConfig, system: string, user: string): Promise<LlmAnswer> {
  const timeoutMs = config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let res: Response;
  try {
    res = await fetch(completionsUrl(config.url), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: config.model,
        temperature: 0.2,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    return {
      ok: false,
      error: timedOut
        ? `The LLM at ${config.url} did not answer within ${timeoutMs} ms.`
        : `The LLM at ${config.url} could not be reached (${causeOf(e)}).`,
    };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, error: `The LLM at ${config.url} answered ${res.status} with a body that is not JSON.` };
  }
  if (!res.ok) return { ok: false, error: `The LLM at ${config.url} answered ${res.status}${apiMessage(body)}.` };
  const text = contentOf(body);
  if (!text)
    return { ok: false, error: `The LLM at ${config.url} answered without a message (choices[0].message.content).` };
  return { ok: true, text: text.trim() };
}

function contentOf(body: unknown): string | null {
  const choices = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices;
  const content = Array.isArray(choices) ? choices[0]?.message?.content : undefined;
  return typeof content === 'string' && content.trim() !== '' ? content : null;
}

function apiMessage(body: unknown): string {
  const msg = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof msg === 'string' ? `: ${msg.slice(0, 200)}` : '';
}

function causeOf(e: unknown): string {
  const c = e instanceof Error ? (e.cause as { code?: string; message?: string } | undefined) : undefined;
  return c?.code ?? c?.message ?? (e instanceof Error ? e.message : String(e));
}
