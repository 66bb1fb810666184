/** The key check nginx calls over its kept-alive connection to the control plane. */
export const nginxAuthPath = '/_versionary/nginx/auth';

/** Where nginx asks for the decision table when its shared memory has none (just started). */
export const nginxTablePath = '/_versionary/nginx/table';

/** The header that carries the shared secret on every call between nginx and its control plane, both ways. */
export const nginxSecretHeader = 'x-versionary-secret';
