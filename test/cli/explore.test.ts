/**
 * `supermarket explore`: writes index.html (the bundle inline, the vega assets beside it) without opening a browser,
 * refuses --port without --serve in one line, and `serveFolder` serves the folder's files (GET, and HEAD without the body)
 * and nothing outside it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExplorer } from '../../scripts/build-explorer.ts';
import { explorerBundlePath } from '../../src/explorer/writePage.ts';
import { serveFolder } from '../../src/cli/commands/explore.ts';
import { runCli } from './runCli.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'supermarket-explore-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('supermarket explore', () => {
  beforeAll(async () => {
    if (!existsSync(explorerBundlePath())) await buildExplorer(); // what npm run build does (npm ci has run it)
  }, 600_000);

  it('writes the page and its assets, opening nothing with --no-open', async () => {
    const out = path.join(tmp, 'page');
    const r = await runCli(['explore', '--out', out, '--no-open']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`explorer written: ${path.join(out, 'index.html')} (7 files)\n`);
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(html).toContain('<script id="explorer-bundle">');
    expect(html).toContain("connect-src 'none'");
    expect(html.match(/<\/script/gi)!.length).toBe(4); // the three vega scripts and the bundle: nothing inside closes early
    for (const f of ['vega.min.js', 'vega-lite.min.js', 'vega-embed.min.js']) expect(existsSync(path.join(out, 'assets', f))).toBe(true);
  });

  it('refuses --port without --serve in one line', async () => {
    const r = await runCli(['explore', '--out', path.join(tmp, 'x'), '--no-open', '--port', '9000']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('supermarket: error: --port has no effect without --serve\n');
  });

  it('refuses a port outside 0..65535 in one line that names --port once', async () => {
    const r = await runCli(['explore', '--out', path.join(tmp, 'y'), '--no-open', '--serve', '--port', '99999']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('supermarket: error: --port: expected an integer in 0..65535, got "99999"\n');
  });

  it('serves the folder on 127.0.0.1 and nothing outside it', async () => {
    const out = path.join(tmp, 'page');
    const server = await serveFolder(out, 0);
    try {
      const address = server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const index = await fetch(`${base}/`);
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toContain('text/html');
      expect((await fetch(`${base}/assets/vega.min.js`)).status).toBe(200);
      // '..' is resolved inside the folder (URL normalisation), so /etc/passwd is looked for there: not found
      expect((await fetch(`${base}/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
      const post = await fetch(`${base}/index.html`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      // HEAD is answered like GET, without the body (it was 405 before)
      const get = await fetch(`${base}/assets/vega.min.js`);
      const bytes = (await get.arrayBuffer()).byteLength;
      const head = await fetch(`${base}/assets/vega.min.js`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(Number(head.headers.get('content-length'))).toBe(bytes);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      expect((await fetch(`${base}/missing.js`, { method: 'HEAD' })).status).toBe(404);
      expect((await fetch(`${base}/missing.js`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
