import { readFileSync } from 'node:fs';

/** One fenced code block of a Markdown file, with its info string's language and attributes. */
export interface DocBlock {
  file: string;
  line: number;
  lang: string;
  /** `no-run`, `background`, `file=app.js`, `ready=http://…`: the words after the language. */
  attributes: Record<string, string | true>;
  code: string;
}

/**
 * The fenced blocks of a Markdown file in order, indented ones (in list items) included, with
 * their indentation removed.
 */
export function docBlocks(path: string, text = readFileSync(path, 'utf8')): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !new RegExp(`^ {0,${indent}}\`\`\`\\s*$`).test(lines[j]!); j++)
      body.push(lines[j]!.slice(Math.min(indent, /^ */.exec(lines[j]!)![0].length)));
    const attributes: Record<string, string | true> = {};
    for (const word of open[3]!.trim().split(/\s+/).filter(Boolean)) {
      const [key, ...value] = word.split('=');
      attributes[key!] = value.length > 0 ? value.join('=') : true;
    }
    blocks.push({ file: path, line: i + 1, lang: open[2]!, attributes, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** Languages whose blocks a user pastes and the doc test runs (unless `no-run`). */
export const runnableLangs = ['sh', 'bash', 'js', 'mjs', 'ts'];
