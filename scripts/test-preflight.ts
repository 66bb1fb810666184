// The first step of `npm test`: PostgreSQL, Redis and Chromium are checked (and Chromium installed
// with apt when running as root) before the suites start, so a missing service is one clear line
// instead of many failing tests.
import { checkPrerequisites, defaultPrerequisites } from '../test/support/prerequisites.ts';

const missing = await checkPrerequisites(defaultPrerequisites);
if (missing !== null) {
  process.stderr.write(`${missing}\n`);
  process.exitCode = 1;
}
