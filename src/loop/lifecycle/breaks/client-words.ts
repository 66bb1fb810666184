import { parsePointer, type Change } from '../../../core/compat/index.ts';

/** One breaking change in words a client reads without the document: no schema names, rule ids or backticks. */
export function toClientWords(change: Change, to: string): string {
  const side = change.direction === 'request' ? 'request' : 'response';
  const field = fieldOf(change.location.pointer);
  const subject = field === '' ? `the ${side} body` : `the ${side} field "${field}"`;
  // A property change points at the property or at its parent object, by rule: name it once.
  const named = (name: unknown) => {
    const last = field.split('.').pop()?.replace(/\[\]$/, '');
    return `"${typeof name !== 'string' || name === last ? field : [field, name].filter(Boolean).join('.')}"`;
  };
  const { id, oldValue: was, newValue: now } = change;
  if (id.startsWith('endpoint-removed')) return `This endpoint no longer exists in ${to}.`;
  if (id.endsWith('-type-changed')) return sentence(`${subject} was ${kind(was)}; in ${to} it is ${kind(now)}.`);
  if (/-property-removed\b/.test(id)) return `The ${side} no longer has the field ${named(was)}.`;
  if (id.endsWith('-property-renamed')) return `The ${side} field ${named(was)} is now called ${named(now)}.`;
  if (id === 'request-property-added-required') return `Requests must now include the field ${named(now)}.`;
  if (id === 'request-property-became-required') return `Requests must now include ${subject}.`;
  if (id === 'request-parameter-added-required') return `Requests must now send the parameter "${String(now)}".`;
  if (id.startsWith('request-parameter-removed')) return `The parameter "${String(was)}" is no longer accepted.`;
  if (id.endsWith('-status-removed')) return `The ${String(was)} answer is no longer returned.`;
  if (id.endsWith('-media-type-removed'))
    return `The content type ${String(was)} is no longer ${side === 'request' ? 'accepted' : 'returned'}.`;
  if (id.endsWith('-enum-value-removed'))
    return sentence(
      `${subject} no longer ${side === 'request' ? 'accepts' : 'takes'} the value ${JSON.stringify(was)}.`,
    );
  if (id === 'response-became-nullable') return sentence(`${subject} may now be null.`);
  if (id === 'request-became-not-nullable') return sentence(`${subject} no longer accepts null.`);
  if (id === 'response-header-removed') return `The ${String(was)} header is no longer sent.`;
  return plain(change.message, subject);
}

const kinds: Record<string, string> = {
  array: 'a list (JSON array)',
  object: 'an object',
  string: 'text (a string)',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

function kind(value: unknown): string {
  const types = Array.isArray(value) ? value.map(String) : [String(value)];
  return types.map((t) => kinds[t] ?? t).join(' or ');
}

/** The field a schema pointer lands on (`data[].email`), `''` for the body itself. */
function fieldOf(pointer: string): string {
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return '';
  }
  const start = tokens[0] === 'components' && tokens[1] === 'schemas' ? 3 : tokens.lastIndexOf('schema') + 1;
  if (start <= 0) return '';
  let path = '';
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === 'properties' && tokens[i + 1] !== undefined) path += `${path === '' ? '' : '.'}${tokens[++i]}`;
    else if (token === 'items') path += '[]';
    else if (token === 'allOf' || token === 'oneOf' || token === 'anyOf') i++;
    else break;
  }
  return path;
}

/** A diff message without Markdown: `Schema.field` names become the field they name. */
function plain(message: string, subject: string): string {
  const text = message
    .replace(/\b(Request|Response) (value|field) `[^`]*`/, sentence(subject))
    .replace(/`([^`]*)`/g, (_, name: string) => `"${name.includes('.') ? name.slice(name.indexOf('.') + 1) : name}"`);
  return sentence(text);
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
