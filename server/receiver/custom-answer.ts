import type { ServerResponse } from 'node:http';
import type { CustomResponse } from '../endpoints/custom-response.ts';
import { customAnswerHead } from '../logs/sender-answers.ts';

/**
 * Writes an endpoint's custom answer (customAnswerHead says what it holds; the log
 * detail rebuilds it from there). Not the envelope writer's job (http/envelope.ts):
 * this answer is the user's, not the engine's.
 */
export function writeCustomAnswer(res: ServerResponse, answer: CustomResponse, logId: string): void {
  const { headers, body } = customAnswerHead(answer, logId);
  res.writeHead(answer.status, headers);
  res.end(body);
}
