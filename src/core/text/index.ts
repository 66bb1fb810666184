export * from './human-text.ts';
export * from './migration-url.ts';
export * from './unknown-key.ts';
