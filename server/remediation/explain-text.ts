import type { Analysis, Evidence } from './remediation-schemas.ts';

const evidenceLine = (e: Evidence): string => (typeof e === 'string' ? e : `${e.label}: ${e.value}`);

/** The analysis as plain terminal text (no colour: the CLI adds it where wanted). */
export function explainText(a: Analysis): string {
  const lines = [
    `Analysis of ${a.logId} (${a.engine}${a.cached ? ', cached' : ''}, ${a.createdAt})`,
    '',
    a.summary,
    '',
  ];
  a.causes.forEach((c, i) => {
    lines.push(`${i + 1}. ${c.title} [${c.code}, confidence ${Math.round(c.confidence * 100)}%]`);
    lines.push('   Evidence:');
    for (const e of c.evidence) lines.push(`   - ${evidenceLine(e)}`);
    lines.push('   Steps:');
    c.steps.forEach((s, j) => lines.push(`   ${j + 1}) ${s}`));
    lines.push('');
  });
  if (a.explanation) lines.push('Explanation (LLM):', a.explanation, '');
  if (a.llmError) lines.push(`LLM: ${a.llmError}`, '');
  return `${lines.join('\n').trimEnd()}\n`;
}
