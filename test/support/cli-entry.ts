// `versionary` from the sources, for tests that run the CLI as a process without a build of dist/.
import { main } from '../../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
