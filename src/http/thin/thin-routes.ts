/** A template split once: its segments, and which of them are parameters. */
interface Split {
  template: string;
  parts: readonly string[];
  parameters: readonly boolean[];
}

/**
 * Core's `templateAt` for one method's templates, with each template split once instead of on
 * every call: the same match (`{name}` is one non-empty segment, literals equal) and the same
 * choice among several (the one literal at the first segment where they differ; the first of
 * equals), the path walked segment by segment, never split.
 */
export function templateMatcher(templates: Iterable<string>): (below: string) => string | undefined {
  const all: Split[] = [...templates].map((template) => {
    const parts = template.split('/');
    return { template, parts, parameters: parts.map((part) => part.startsWith('{') && part.endsWith('}')) };
  });
  return (below) => {
    let best: Split | undefined;
    for (const split of all)
      if (matches(split, below) && (best === undefined || moreLiteral(split, best))) best = split;
    return best?.template;
  };
}

/** `below.split('/')` has the template's number of segments, each a non-empty one for a parameter, else the literal. */
function matches(split: Split, below: string): boolean {
  const { parts, parameters } = split;
  let from = 0;
  for (let i = 0; i < parts.length; i++) {
    const slash = below.indexOf('/', from);
    // The last segment runs to the end; any other ends at a slash.
    if ((slash === -1) !== (i === parts.length - 1)) return false;
    const end = slash === -1 ? below.length : slash;
    const part = parts[i]!;
    if (parameters[i] ? end === from : end - from !== part.length || !below.startsWith(part, from)) return false;
    from = end + 1;
  }
  return true;
}

/** Both matched one path, so both have its number of segments. */
function moreLiteral(a: Split, b: Split): boolean {
  for (let i = 0; i < a.parts.length; i++) if (a.parameters[i] !== b.parameters[i]) return !a.parameters[i];
  return false;
}
