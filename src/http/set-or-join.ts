import type { FastifyReply } from 'fastify';

/** Fields that hold a list: a deprecation `Link` and a pagination `Link` both stay. */
const listFields = new Set(['link', 'vary']);

/** Set a response header, or for a list-valued field append to the value already there. */
export function setOrJoin(reply: FastifyReply, name: string, value: string): void {
  const existing = reply.getHeader(name);
  if (!listFields.has(name.toLowerCase()) || existing === undefined || existing === '') {
    reply.header(name, value);
    return;
  }
  reply.header(name, `${Array.isArray(existing) ? existing.join(', ') : String(existing)}, ${value}`);
}
