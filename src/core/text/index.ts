export { escapeRegExp } from './escape-reg-exp.ts';
export { nearestName, unknownKey } from './unknown-key.ts';
