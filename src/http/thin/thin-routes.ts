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
 * equals), the path split once per call.
 */
export function templateMatcher(templates: Iterable<string>): (below: string) => string | undefined {
  const all: Split[] = [...templates].map((template) => {
    const parts = template.split('/');
    return { template, parts, parameters: parts.map((part) => part.startsWith('{') && part.endsWith('}')) };
  });
  return (below) => {
    const got = below.split('/');
    let best: Split | undefined;
    for (const split of all) if (matches(split, got) && (best === undefined || moreLiteral(split, best))) best = split;
    return best?.template;
  };
}

function matches(split: Split, got: readonly string[]): boolean {
  const { parts, parameters } = split;
  if (parts.length !== got.length) return false;
  for (let i = 0; i < parts.length; i++) if (parameters[i] ? got[i] === '' : parts[i] !== got[i]) return false;
  return true;
}

/** Both matched one path, so both have its number of segments. */
function moreLiteral(a: Split, b: Split): boolean {
  for (let i = 0; i < a.parts.length; i++) if (a.parameters[i] !== b.parameters[i]) return !a.parameters[i];
  return false;
}
