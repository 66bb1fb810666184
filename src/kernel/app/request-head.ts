/**
 * The most a request's head (request line and headers) may hold, and so the longest URL and path
 * parameter: the server reads no more (`maxHeaderSize`), and the router matches a parameter of
 * any length up to it (`maxParamLength`), so a path id has no shorter bound of the router's.
 */
export const requestHeadLimit = 64 * 1024;
