import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { resolveConfig } from '../../../server/config/config.ts';
import { runRules } from '../../../server/remediation/analyzer.ts';
import { explainText } from '../../../server/remediation/explain-text.ts';
import { completionsUrl } from '../../../server/remediation/llm-client.ts';
import { llmFacts } from '../../../server/remediation/llm-prompt.ts';
import { formatDuration } from '../../../server/remediation/rules/durations-text.ts';
import { context, hmacHex, SECRET } from './context.ts';

describe('remediation output', () => {
  test('LLM facts mask any secret and keep only a preview of the body', () => {
    const body = Buffer.from(JSON.stringify({ leaked: SECRET, filler: 'z'.repeat(1000) }));
    const ctx = context({ log: { body, headers: { 'x-webhook-signature': hmacHex('x', body) } } });
    const { summary, causes } = runRules(ctx);
    const facts = llmFacts(ctx, summary, causes);
    assert.ok(!facts.includes(SECRET));
    assert.ok(facts.includes('[secret]'));
    assert.ok(!facts.includes('z'.repeat(300)));
  });
  test('completions URL: base URLs get /v1/chat/completions, full ones are kept', () => {
    assert.equal(completionsUrl('http://127.0.0.1:11434'), 'http://127.0.0.1:11434/v1/chat/completions');
    assert.equal(completionsUrl('http://127.0.0.1:11434/v1/'), 'http://127.0.0.1:11434/v1/chat/completions');
    assert.equal(completionsUrl('https://x.test/openai/chat/completions'), 'https://x.test/openai/chat/completions');
  });
  test('explain text: summary, numbered causes, evidence and steps', () => {
    const { summary, causes } = runRules(
      context({ log: { headers: { 'x-webhook-signature': hmacHex('x', '{"a":1}') } } }),
    );
    const text = explainText({
      logId: 'log_1',
      summary,
      causes,
      engine: 'rules',
      createdAt: '2026-11-23T10:00:00.000Z',
      cached: false,
      llmError: 'down',
    });
    assert.match(text, /^Analysis of log_1 \(rules, 2026-11-23T10:00:00.000Z\)\n\nVerification/);
    assert.match(
      text,
      /\n1\. The sender signs with a different secret than this endpoint has \[wrong_secret, confidence 70%\]\n {3}Evidence:\n {3}- /,
    );
    assert.match(text, /\nLLM: down\n$/);
  });
  test('durations read naturally', () => {
    assert.deepEqual(
      [
        formatDuration(42_000),
        formatDuration(906_000),
        formatDuration(3 * 3600_000 + 120_000),
        formatDuration(50 * 3600_000),
      ],
      ['42 s', '15 min 6 s', '3 h 2 min', '2 d 2 h'],
    );
  });
  test('config: the LLM is off by default, set from the environment, and a URL without a model is refused', () => {
    assert.equal(resolveConfig({ dataDir: '/d', env: {} }).remediation.llm, null);
    const on = resolveConfig({
      dataDir: '/d',
      env: { HOOKSCOPE_LLM_URL: 'http://127.0.0.1:8080', HOOKSCOPE_LLM_MODEL: 'm', HOOKSCOPE_LLM_API_KEY: 'k' },
    });
    assert.deepEqual(on.remediation.llm, { url: 'http://127.0.0.1:8080', model: 'm', apiKey: 'k' });
    const file = resolveConfig({
      dataDir: '/d',
      env: {},
      file: { remediation: { llm: { url: 'http://h:1', model: 'x', timeoutMs: 5000 } } },
    });
    assert.deepEqual(file.remediation.llm, { url: 'http://h:1', model: 'x', timeoutMs: 5000 });
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_LLM_URL: 'http://h:1' } }),
      /HOOKSCOPE_LLM_MODEL/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: {}, file: { remediation: { llm: { url: 'ftp://h', model: 'x' } } } }),
      /remediation\.llm\.url/,
    );
  });
});
