/**
 * The browser twin of version.ts, for the explorer's bundle (scripts/build-explorer.ts maps version.ts here and
 * defines __SUPERMARKET_VERSION__ from package.json at build time): a browser has no `require` to read package.json.
 */
declare const __SUPERMARKET_VERSION__: string;
export const VERSION: string = __SUPERMARKET_VERSION__;
