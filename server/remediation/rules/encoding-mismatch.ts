import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { headerText, probe, signatureFailed, signatureMatches, shorten } from './probe.ts';
import { schemeSignatureHeaders } from './signature-headers.ts';
import { describeForm, parseToken, rewrites } from './signature-forms.ts';

/**
 * The sender computed the right HMAC but wrote it in another form than the
 * scheme reads (base64 where hex is expected, a missing or extra `sha256=`).
 * Proven by rewriting the sent value into each other form and re-verifying.
 */
export function encodingMismatchRule(ctx: RuleContext): RuleCause[] {
  if (!signatureFailed(ctx)) return [];
  for (const name of schemeSignatureHeaders(ctx)) {
    const sent = headerText(ctx.log.headers[name]);
    if (sent === undefined) continue;
    // Keep the separators so the header is rebuilt exactly around the one value changed.
    const parts = sent.split(/([,\s]+)/);
    for (let i = 0; i < parts.length; i += 2) {
      const token = parseToken(parts[i]!);
      if (!token) continue;
      for (const rw of rewrites(token)) {
        const candidate = [...parts.slice(0, i), rw.value, ...parts.slice(i + 1)].join('');
        const r = probe(ctx, { headers: { ...ctx.log.headers, [name]: candidate } });
        if (!signatureMatches(r)) continue;
        return [
          {
            code: 'encoding_mismatch',
            title: `The signature is right but written as ${token.encoding}${token.prefix ? ` after ${token.prefix}` : ''}; the scheme expects ${describeForm(rw.encoding, rw.prefix)}`,
            confidence: 0.96,
            evidence: [
              `The bytes the sender sent in ${name} equal the HMAC of the body with the endpoint's secret; only their form differs.`,
              { label: `Sent (${describeForm(token.encoding, token.prefix)})`, value: shorten(parts[i]!, 120) },
              { label: `Expected (${describeForm(rw.encoding, rw.prefix)})`, value: shorten(rw.value, 120) },
            ],
            steps: [
              `Have the sender write the digest as ${describeForm(rw.encoding, rw.prefix)}: e.g. in Node ${rw.prefix ? `'${rw.prefix}' + ` : ''}hmac.digest('${rw.encoding}'), in Python ${rw.prefix ? `'${rw.prefix}' + ` : ''}${rw.encoding === 'hex' ? 'hmac.new(...).hexdigest()' : 'base64.b64encode(hmac.new(...).digest()).decode()'}.`,
              token.encoding === 'base64 of the hex text'
                ? 'Do not base64-encode the hex string: encode the raw digest bytes once.'
                : 'Encode the raw digest bytes once, in that encoding only.',
            ],
          },
        ];
      }
    }
  }
  return [];
}
