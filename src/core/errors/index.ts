export * from './codes.ts';
export * from './versionary-error.ts';
