/** What an API's served documents say of it beside its title: the app's own words, never a default. */
export interface ApiDocumentInfo {
  /** The `info.description` of every version's document (CommonMark). */
  description?: string;
  /** The `info.license`: a name, and an SPDX `identifier` or a `url`. */
  license?: { name: string; identifier?: string; url?: string };
  contact?: { name?: string; url?: string; email?: string };
}

/** The info of one version's document: given per version by the reference service, once by an app. */
export type ApiDocumentInfoSource = ApiDocumentInfo | ((version: string) => ApiDocumentInfo);

/** The `info` members `source` gives for `version`, without the ones it leaves out. */
export function documentInfoFor(source: ApiDocumentInfoSource | undefined, version: string): Record<string, unknown> {
  const info = typeof source === 'function' ? source(version) : (source ?? {});
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined));
}
