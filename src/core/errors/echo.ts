/** The most characters of client input an error message repeats. */
const maxEcho = 200;

/**
 * Client input as an error message may repeat it: at most {@link maxEcho} characters, with an
 * ellipsis when cut, so a 60 kB header never comes back whole in a problem body.
 */
export function echo(input: string, max = maxEcho): string {
  return input.length <= max ? input : `${input.slice(0, max)}…`;
}
