/** What a stored delivery was answered (sender-answers.ts): the engine's envelopes, or the endpoint's custom response. */
export const ANSWER_KINDS = ['accepted', 'verification_failed', 'refused', 'custom'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];
