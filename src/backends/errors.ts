// Errors backends raise that stages treat specially.
import { ConfigError } from '../errors.js';

/**
 * A mistake retrying cannot fix (bad key, unknown model, a setting the server refuses): the run stops with it. A bad
 * setup, so a ConfigError (exit 2).
 */
export class FatalBackendError extends ConfigError {
  override name = 'FatalBackendError';
}

/** A response that arrived but can't be used (no logprobs, no choices, unparseable output): retried like a 5xx. */
export class BadResponseError extends Error {
  override name = 'BadResponseError';
}

/**
 * A request the server refused for what this one item holds (a prompt over the context length, an image it cannot
 * decode, a conversation its template rejects): not retried, not fatal; the item is a failure with the server's text.
 */
export class ItemRejectedError extends Error {
  override name = 'ItemRejectedError';
}
