export { ErrorCode, errorTitles } from './codes.ts';
export {
  echo,
  VersionaryError,
  isVersionaryError,
  type FieldError,
  type VersionaryErrorOptions,
} from './versionary-error.ts';
