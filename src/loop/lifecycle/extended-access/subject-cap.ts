import type { ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';

/** The cap (`extendedAccessUntil`) of a subject, or undefined when none can be granted. */
export function subjectCap(runtime: LifecycleRuntime, s: ExtendedAccessSubject): number | undefined {
  if (s.kind === 'endpoint')
    return runtime
      .endpointDeprecations()
      .find((e) => e.version === s.version && e.method === s.method && e.path === s.path)?.extendedAccessUntil;
  if (s.kind === 'element')
    return runtime.elements().find((e) => e.version === s.version && e.element === s.element)?.extendedAccessUntil;
  return runtime.scheduleOf(s.version)?.extendedAccessUntil;
}
