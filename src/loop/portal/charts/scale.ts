/** A linear map from a data range onto a pixel range. */
export type Scale = (value: number) => number;

/** A linear scale; a degenerate domain maps everything to the range's start. */
export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  return (value) => (d1 === d0 ? r0 : r0 + ((value - d0) / (d1 - d0)) * (r1 - r0));
}

/** A "nice" upper bound for a count axis (1, 2 or 5 times a power of ten), at least 1. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((m) => m >= value)!;
}

/** Series colours: distinct, and dark enough for 3:1 contrast on white (WCAG non-text contrast). */
export const palette = ['#0b5cad', '#b3261e', '#116329', '#8a4600', '#6639ba', '#0f6b63'];

/** Round to one decimal for SVG coordinates: shorter markup, no visible difference. */
export function px(value: number): number {
  return Math.round(value * 10) / 10;
}
