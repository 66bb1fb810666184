// Copies the files the compiled code reads at run time (portal CSS and scripts) from src/ to dist/,
// because tsc only emits JavaScript. Test fixtures stay behind.
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const copied = [];
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures') walk(path);
    } else if (!entry.name.endsWith('.ts')) {
      const target = join('dist', relative('src', path));
      cpSync(path, target);
      copied.push(target);
    }
  }
}
walk('src');
process.stdout.write(`copied ${copied.length} asset(s) into dist/\n`);
