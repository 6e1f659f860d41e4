/** Every cause the rules can prove; a closed list, so the API's enum and the rules agree. */
export const CAUSE_CODES = [
  'previous_secret',
  'wrong_secret',
  'encoding_mismatch',
  'body_modified',
  'timestamp_skew',
  'wrong_provider',
  'wrong_header_name',
  'payload_too_large',
  'receiver_refused',
  'target_unreachable',
  'target_timeout',
  'target_rejected_signature',
  'target_error',
  'unsafe_sub_path',
] as const;
export type CauseCode = (typeof CAUSE_CODES)[number];
