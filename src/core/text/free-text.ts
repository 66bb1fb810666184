/**
 * The JSON Schema `pattern` of free text (a user's name, a post's title and body): any string but
 * one holding U+0000. Every JSON body with a NUL character in a string is refused with a 400
 * (`http/json-body.ts`: SQLite would cut the string there, PostgreSQL refuses it), so each such
 * field states it, and a client or a contract tester reads in the document what the server does.
 * Any other character is taken, tabs and line breaks included: the pattern says exactly that.
 */
export const freeTextPattern = '^[^\\u0000]*$';
