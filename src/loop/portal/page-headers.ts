// No Preact here: the not-found page's step is listed in the loop's steps, which every loop
// loads, also with `portal: false` and the portal's packages not installed.

/**
 * The Content-Security-Policy of every page: everything from the service itself, no inline script
 * or style, nothing framed; `data:` images because the reference's icons are inline SVG.
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const pageHeaders: Record<string, string> = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, and the portal checks Origin.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};
