// Errors backends raise that stages treat specially.

/** A mistake retrying cannot fix (bad key, unknown model, a setting the server refuses): the run stops with it. */
export class FatalBackendError extends Error {
  override name = 'FatalBackendError';
}

/** A response that arrived but can't be used (no logprobs, no choices, unparseable output): retried like a 5xx. */
export class BadResponseError extends Error {
  override name = 'BadResponseError';
}
