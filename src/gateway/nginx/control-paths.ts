/** The key check nginx calls over its kept-alive connection to the control plane. */
export const nginxAuthPath = '/_versionary/nginx/auth';

/** Where nginx asks for the decision table when its shared memory has none (just started). */
export const nginxTablePath = '/_versionary/nginx/table';

/** Where nginx posts the calls it counted (`{ instance, seq, entries }`), each batch until it is acknowledged. */
export const nginxUsagePath = '/_versionary/nginx/usage';

/** The header that carries the shared secret on every call between nginx and its control plane, both ways. */
export const nginxSecretHeader = 'x-versionary-secret';
