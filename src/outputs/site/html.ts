/** HTML text helpers. Everything the site writes from data goes through `escapeHtml`. */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A JSONP-style data file: works from file://, where fetch() is blocked. */
export function dataScript(key: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `KA.put(${JSON.stringify(key)},${json});\n`;
}
