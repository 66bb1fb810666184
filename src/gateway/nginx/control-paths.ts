/** The key check nginx calls over its kept-alive connection to the control plane. */
export const nginxAuthPath = '/_versionary/nginx/auth';

/** Where nginx asks for the decision table when its shared memory has none (just started). */
export const nginxTablePath = '/_versionary/nginx/table';
