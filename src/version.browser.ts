/**
 * The browser twin of version.ts, for the explorer's bundle (scripts/build-explorer.ts maps version.ts here and
 * defines __SUPERMARKET_VERSION__ from package.json and __SUPERMARKET_CODE__ from the code identity at build time): a browser has no `require` to read package.json.
 */
declare const __SUPERMARKET_VERSION__: string;
declare const __SUPERMARKET_CODE__: string;
export const VERSION: string = __SUPERMARKET_VERSION__;

/** The code identity of the bundle, computed when it was built (runs/codeIdentity.ts). */
export function codeId(): string {
  return __SUPERMARKET_CODE__;
}
