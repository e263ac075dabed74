/**
 * `supermarket explore`: writes the live explorer (a static offline page: src/explorer/) to a folder and opens it in
 * the default browser, or serves the folder on localhost with --serve. The page itself needs no server: it works
 * from file://, with the network off.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { explorerBundle, writeExplorerPage } from '../../explorer/writePage.ts';
import { action } from '../errors.ts';
import { examples } from '../options.ts';

interface Opts {
  out: string;
  serve?: boolean;
  port: number;
  open: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const parsePort = (text: string): number => {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError(`expected an integer in 0..65535, got ${JSON.stringify(text)}`);
  return port;
};

/**
 * Serves the files of `dir` (nothing outside it) on 127.0.0.1:`port`; resolves with the server once listening. GET
 * sends a file with its content-type and content-length; HEAD answers the same status and headers without the body
 * (RFC 9110 §9.3.2); any other method is 405 with `Allow: GET, HEAD`.
 */
export function serveFolder(dir: string, port: number): Promise<Server> {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const file = path.resolve(root, '.' + decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let body: Buffer;
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      body = readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new InvalidArgumentError(`port ${port} is in use: choose another with --port`) : e),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Opens `target` in the default browser (xdg-open, open, start); says where the page is when that fails. */
function openInBrowser(target: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [target]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', target]]
        : ['xdg-open', [target]];
  const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
  child.once('error', () => process.stderr.write(`note: could not start ${cmd}; open ${target} in a browser\n`));
  child.unref();
}

export function exploreCommand(): Command {
  const cmd = new Command('explore')
    .description(
      'Writes the live explorer: a static page (index.html and assets/) where λ, d, n, the selection rule, the\n' +
        'discipline, the size law and the prediction model are controls; on every change the mean field re-solves in a\n' +
        'Web Worker (fixed point with its kind and source, refined 1/n for n, transient from empty, response-time or\n' +
        'workload ccdf), and "simulate" runs n servers in workers and overlays the points with 95% CIs. The settings live\n' +
        'in the address (share the link); figures download as SVG/PNG, data as CSV/JSON. It works from file:// offline.',
    )
    .option('--out <dir>', 'folder to write (created if missing)', 'reports/explorer')
    .option('--serve', 'serve the folder on http://127.0.0.1:PORT until interrupted (the page also works without it)')
    .option('--port <port>', 'port for --serve (0: any free port)', parsePort, 8723)
    .option('--no-open', 'do not open a browser')
    .addHelpText(
      'after',
      examples(['supermarket explore', 'supermarket explore --out /tmp/explorer --no-open', 'supermarket explore --serve --port 8080']),
    );
  cmd.action(
    action(async (o: Opts) => {
      if (!o.serve && cmd.getOptionValueSource('port') === 'cli') throw new InvalidArgumentError('--port has no effect without --serve');
      let bundle: string;
      try {
        bundle = explorerBundle();
      } catch (e) {
        throw new InvalidArgumentError((e as Error).message); // the bundle is missing: one line naming npm run build
      }
      const written = writeExplorerPage(o.out, bundle);
      const index = path.resolve(o.out, 'index.html');
      process.stdout.write(`explorer written: ${index} (${written.length} files)\n`);
      if (!o.serve) {
        if (o.open) openInBrowser(pathToFileURL(index).href);
        return;
      }
      const server = await serveFolder(o.out, o.port);
      const address = server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : o.port}/`;
      process.stdout.write(`serving ${path.resolve(o.out)} at ${url} (Ctrl-C stops)\n`);
      if (o.open) openInBrowser(url);
    }),
  );
  return cmd;
}
