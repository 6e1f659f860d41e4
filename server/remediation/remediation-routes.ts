import { route, type RouteSpec } from '../http/route.ts';
import { explainText } from './explain-text.ts';
import type { RemediationService } from './remediation-service.ts';
import { AnalysisSchema, AnalyzeBody, AnalyzeParams, AnalyzeQuery, ExplainQuery } from './remediation-schemas.ts';

export function remediationRoutes(remediation: RemediationService): RouteSpec[] {
  const notEligible = { 409: 'NOT_ELIGIBLE: the log passed verification and no replay or forward of it failed.' };
  return [
    route({
      method: 'post',
      path: '/api/webhooks/logs/:logId/analyze',
      summary: 'Explain why a delivery (or its replay) failed; stored once, answered from the store unless refresh',
      tag: 'Remediation',
      params: AnalyzeParams,
      query: AnalyzeQuery,
      body: AnalyzeBody,
      bodyOptional: true,
      responses: { 200: { description: 'The analysis', data: AnalysisSchema } },
      errors: notEligible,
      handler: async ({ account, params, query, body }) => ({
        data: await remediation.analyze(account, params.logId, {
          refresh: (query.refresh ?? false) || (body.refresh ?? false),
        }),
      }),
    }),
    route({
      method: 'get',
      path: '/api/cli/explain/:logId',
      summary: 'The same analysis for terminals: JSON by default, plain text with format=text',
      tag: 'Remediation',
      params: AnalyzeParams,
      query: ExplainQuery,
      responses: {
        200: { description: 'The analysis (format=text: text/plain, not enveloped)', data: AnalysisSchema, text: true },
      },
      errors: notEligible,
      handler: async ({ account, params, query }) => {
        const analysis = await remediation.analyze(account, params.logId, { refresh: query.refresh ?? false });
        if (query.format === 'text') return { text: explainText(analysis) };
        return { data: analysis };
      },
    }),
  ];
}
