// Text made safe for the page: escaped for HTML, or JSON that cannot end its <script> element.

/**
 * Escapes text for HTML element content and quoted attribute values.
 * @example escapeHtml('<b>"x" & \'y\'</b>') // '&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;'
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/**
 * JSON that is safe inside a <script> element: every "<" becomes \u003c, so no text can close the element or open a
 * comment; JSON.parse reads it back unchanged.
 * @example jsonForScript({ a: '</script>' }) // '{"a":"\\u003c/script>"}'
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
