export { ErrorCode, errorTitles } from './codes.ts';
export { echo } from './echo.ts';
export { VersionaryError, isVersionaryError } from './versionary-error.ts';
export type { FieldError, VersionaryErrorOptions } from './versionary-error.ts';
