import type { VNode } from 'preact';
import { html } from '../html.ts';

/**
 * The sign-in form: one API key field. The key goes in a POST body, never a URL, and the field is
 * a password field so it is not shown or kept by the browser's form history.
 */
export function SignInPage(props: { error?: string }): VNode {
  return html`<div>
    <h1>Sign in to the portal</h1>
    <p>
      Consumers sign in with their API key and see the deprecations that affect them; the API owner signs in with an
      admin key.
    </p>
    ${props.error && html`<p class="error" role="alert">${props.error}</p>`}
    <form method="post" action="/portal/sign-in">
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required maxlength="512" />
      <p><button type="submit">Sign in</button></p>
    </form>
    <p class="muted">
      The sign-in lasts 30 minutes. Nothing is stored on the server: the browser keeps a signed cookie.
    </p>
  </div>`;
}
