/**
 * The names the first release shipped for extended access, before it had one name everywhere:
 * "exemptions". Operators' scripts, generated clients and webhook receivers may rely on them, and
 * a published contract does not break (the spec's compatibility rules), so each stays as an alias
 * or a wire name, spelled here and nowhere else. New names never join this list.
 */
export const earlierNames = {
  /** `/admin/v1/exemptions`: an alias of `/admin/v1/extended-access-grants`. */
  grantsPath: '/exemptions',
  /** `/admin/v1/exemption-requests` and the portal's `/portal/exemption-requests`: aliases of `…/extended-access-requests`. */
  requestsPath: '/exemption-requests',
  /** The operationIds' prefixes of the alias paths, as they were documented. */
  grantsOperation: 'exemptions',
  requestsOperation: 'exemptionRequests',
  /** The OpenAPI tag of the extended-access operations (generated clients name their classes after it). */
  tag: 'exemptions',
  /** `versionary exemptions`: runs `versionary extended-access`. */
  command: 'exemptions',
  /** A decided request's member naming the grant it made. */
  grantIdMember: 'exemptionId',
  /** The webhook events of a decision (`exemption.granted`, `exemption.declined`) and their member. */
  eventPrefix: 'exemption',
  noticeMember: 'exemption',
  /** The change-feed topic instances of the first release listen to: announced beside the new one while they roll. */
  feedTopic: 'exemptions',
} as const;
