export { escapeRegExp } from './escape-reg-exp.ts';
