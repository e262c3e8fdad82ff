import type { ErrorCode } from './domain-error';

/**
 * The HTTP status of each error code, as openapi.yaml's `ErrorCode` documents it: the one place a
 * refusal becomes a status. Typed over every code, so a code added to the contract does not
 * compile until it has its status here.
 *
 * One code is answered with another status by the edge that meets it: `invalid_tus_request` is a
 * 403 where @tus/server refuses with 403 (`tus/tus-bridge.ts`), and `invalid_multipart` a 415 for
 * a multipart part @fastify/multipart refuses with 406 (`common/multipart-errors.ts`).
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  invalid_multipart: 400,
  unknown_tool: 400,
  invalid_pipeline: 400,
  missing_input: 400,
  unsupported_input: 400,
  tus_extension_unsupported: 400,
  invalid_tus_request: 400,
  unauthorized: 401,
  password_required: 401,
  invalid_key: 401,
  revoked: 401,
  expired: 401,
  insufficient_credits: 402,
  spend_cap_reached: 402,
  forbidden: 403,
  ip_not_allowed: 403,
  insufficient_scope: 403,
  plan_not_eligible: 403,
  drop_paused: 403,
  wrong_password: 403,
  quarantined: 403,
  invalid_signature: 403,
  url_expired: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  offset_mismatch: 409,
  slug_taken: 409,
  drop_full: 409,
  scan_pending: 409,
  processed_unavailable: 409,
  idempotency_conflict: 409,
  cannot_cancel: 409,
  drop_expired: 410,
  upload_expired: 410,
  output_expired: 410,
  tus_version_unsupported: 412,
  body_too_large: 413,
  file_too_large: 413,
  unsupported_media_type: 415,
  kind_not_allowed: 415,
  range_not_satisfiable: 416,
  upload_locked: 423,
  checksum_mismatch: 460,
  rate_limited: 429,
  concurrency_exceeded: 429,
  too_many_uploads: 429,
  internal_error: 500,
  enqueue_failed: 500,
  unavailable: 503,
  tool_unavailable: 503,
};
