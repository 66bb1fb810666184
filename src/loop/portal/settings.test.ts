import assert from 'node:assert/strict';
import { it } from 'node:test';
import { defaultPortalSettings, parsePortalSettings } from './settings.ts';

const parse = (portal: unknown) => {
  const errors: string[] = [];
  const settings = parsePortalSettings({ file: portal === undefined ? {} : { portal }, errors });
  return { settings, errors };
};

it('reads portal.sessionBudget: 60 per 20 seconds by default, false for none, every error named', () => {
  assert.deepEqual(parse(undefined), { settings: { sessionBudget: { max: 60, windowSeconds: 20 } }, errors: [] });
  assert.deepEqual(parse({ sessionBudget: { max: 5 } }).settings, { sessionBudget: { max: 5, windowSeconds: 20 } });
  assert.deepEqual(parse({ sessionBudget: false }), { settings: { sessionBudget: false }, errors: [] });
  assert.deepEqual(parse({ sessionBudget: { max: 0, windowSeconds: 1.5, burst: 3 } }), {
    settings: defaultPortalSettings,
    errors: [
      'portal.sessionBudget: unknown key "burst" (known: max, windowSeconds)',
      'portal.sessionBudget.max must be an integer from 1 to 1000000, not 0',
      'portal.sessionBudget.windowSeconds must be an integer from 1 to 86400, not 1.5',
    ],
  });
  assert.match(parse({ budget: 3 }).errors[0]!, /^portal: unknown key "budget"/);
  assert.match(parse(true).errors[0]!, /^portal must be an object/);
  assert.match(parse({ sessionBudget: 10 }).errors[0]!, /^portal\.sessionBudget must be false or an object/);
});
