#!/usr/bin/env node
// The CLI runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci` runs
// through the `postprepare` script and `npm pack` through `prepack`): no TypeScript compiler at run time.
let main;
try {
  ({ main } = await import('../dist/cli/main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write('versionary: the compiled CLI is missing (dist/). Run `npm run build` first.\n');
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2));
