/**
 * The one rule for an email address, stated as a pattern in every schema that takes one (a user's
 * `email`, a key's `contact`, a client's `contacts`): a dot-atom local part, `@`, and a domain of at
 * least two dotted DNS labels. It is stricter than `format: email` (RFC 5321 also allows quoted local
 * parts and a bare domain such as `0@com`), so the documents state the pattern, which is exactly
 * what the service accepts, instead of a format it would refuse part of.
 */
export const emailPattern =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

/** What {@link emailPattern} means, for a schema's description. */
export const emailRule =
  'An email address: a dot-atom local part, @ and a domain with at least one dot (`ada@example.com`; not `0@com` or a quoted local part).';
