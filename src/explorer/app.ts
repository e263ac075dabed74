/**
 * The explorer's browser script (bundled by scripts/build-explorer.ts, inlined by `supermarket explore`). The same
 * script plays two roles: in a Web Worker it answers `protocol.ts` requests (the mean field, simulation units); in
 * the page it draws the controls (from the model schema: `modelControls`), keeps the state in the URL hash,
 * re-solves in a worker on every change, runs simulations in workers (progress, cancel) and draws the figures with
 * vega-embed (loaded from the page's assets/). Workers start from a blob: URL of this script's own text (the
 * inlined <script id="explorer-bundle">), which works from file://, where a worker file cannot be loaded.
 * No network: nothing here fetches; downloads are blob: links.
 */
import { parseModel, type ModelInput, type SupermarketModel } from '../model/index.ts';
import { timeUnit } from '../model/service/index.ts';
import { simulationWarmup } from '../meanfield/warmup.ts';
import { planSimulation, SimulationCollector, type ReplicationPart, type SimulationResult } from '../sim/simulate.ts';
import type { SimulateOptions } from '../sim/simulate.ts';
import { VERSION } from '../version.ts';
import { describeFitErrorOf } from '../meanfield/phaseType/fitError.ts';
import { explorerFigures, toCsv, type ExplorerFigure } from './figures.ts';
import { handleRequest, type Reply, type Request } from './protocol.ts';
import { modelControls, modelInput, simulatedResponseTimeText, solutionRows, type ControlField, type ExplorerView } from './view.ts';
import { formatCount } from '../stats/index.ts';
import { statusText, UNVALUED } from '../compare/verdict.ts';
import { jsonText, meanJson } from '../io/jsonText.ts';

declare const vegaEmbed: (el: HTMLElement, spec: unknown, options: unknown) => Promise<{ finalize(): void }>;

interface WorkerScope {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: Reply): void;
}

/** What the page exposes for tests and the console: the state, the last view and simulation, and the status. */
interface ExplorerStatus {
  status: 'starting' | 'solving' | 'ready' | 'error';
  /** Views drawn so far. */
  drawn: number;
  state: Record<string, string>;
  view?: ExplorerView;
  error?: string;
  simulation: { status: 'idle' | 'running' | 'done' | 'cancelled' | 'error'; progress: number; result?: SimulationResult; error?: string };
}

/** λ, d, n and the simulation settings: the numeric fields the page lays out itself, with defaults. */
const NUMBERS: readonly { name: string; label: string; title: string; default: string; min: number; max?: number; step: string }[] = [
  { name: 'lambda', label: 'λ', title: 'arrival rate per server (load ρ = λ·E[S])', default: '0.9', min: 0.01, max: 0.999, step: '0.01' },
  { name: 'd', label: 'd', title: 'servers sampled per job', default: '2', min: 1, step: '1' },
  { name: 'n', label: 'n', title: 'servers, for the refined mean field and the simulation', default: '10', min: 1, step: '1' },
];
const SIMULATION: readonly { name: string; label: string; title: string; default: string; min: number; step: string }[] = [
  { name: 'jobs', label: 'jobs', title: 'measured jobs per replication (after the warm-up)', default: '20000', min: 100, step: '1000' },
  { name: 'replications', label: 'R', title: 'independent replications (95 % CIs from their spread)', default: '4', min: 2, step: '1' },
  { name: 'seed', label: 'seed', title: 'master seed: the same seed gives the same numbers', default: '1', min: 0, step: '1' },
];

const LABELS: Record<string, string> = {
  selection: 'selection rule (random, JSQ(d), LWL(d), LPW(d))',
  discipline: 'discipline inside a server',
  service: 'size law (short form; mean 1)',
  prediction: 'prediction model (for LPW, SPJF, PSPJF, SPRPT)',
  sampling: 'sampling of the d servers',
  conventions: 'conventions (JSON, theory.md §1)',
};

/** The view as JSON: a limit mean infinite in theory as the ∞ object (io/jsonText.ts), not a bare null. */
const viewAsJson = (view: ExplorerView | undefined) => {
  const s = view?.solution;
  if (!view || !s || Number.isFinite(s.meanResponseTime)) return view;
  const why = view.infinite ?? 'E[T] = ∞ in theory';
  return {
    ...view,
    solution: {
      ...s,
      meanResponseTime: meanJson(s.meanResponseTime, why),
      ...(s.meanQueueLength === undefined ? {} : { meanQueueLength: meanJson(s.meanQueueLength, why) }),
    },
  };
};
const sig = (x: number, digits = 4) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : x > 0 ? '∞' : String(x));

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

function download(name: string, text: string, type: string): void {
  const a = el('a', { download: name, href: URL.createObjectURL(new Blob([text], { type })) });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function page(): void {
  const source = document.getElementById('explorer-bundle')?.textContent ?? '';
  const workerUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const spawn = () => new Worker(workerUrl);
  const controls = modelControls();
  const defaults: Record<string, string> = Object.fromEntries([
    ...NUMBERS.map((f) => [f.name, f.default]),
    ...controls.map((f) => [f.name, f.default]),
    ...SIMULATION.map((f) => [f.name, f.default]),
  ]);
  const status: ExplorerStatus = { status: 'starting', drawn: 0, state: { ...defaults }, simulation: { status: 'idle', progress: 0 } };
  (window as unknown as { explorer: ExplorerStatus }).explorer = status;

  const readHash = (): Record<string, string> => {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    const state = { ...defaults };
    for (const key of Object.keys(defaults)) {
      const v = params.get(key);
      if (v !== null) state[key] = v;
    }
    return state;
  };
  const writeHash = () => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(status.state)) params.set(k, v);
    const hash = '#' + params.toString();
    if (location.hash !== hash) history.replaceState(null, '', hash);
  };

  // ---- layout
  const inputs = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const numberRow = (f: (typeof NUMBERS)[number]) => {
    const input = el('input', {
      type: 'number',
      id: `f-${f.name}`,
      name: f.name,
      min: String(f.min),
      step: f.step,
      ...(f.max ? { max: String(f.max) } : {}),
    });
    inputs.set(f.name, input);
    const row = el(
      'label',
      { class: 'row', title: f.title },
      el('span', { class: 'name' }, f.label),
      input,
      el('span', { class: 'hint' }, f.title),
    );
    if (f.name === 'lambda') {
      const range = el('input', { type: 'range', id: 'f-lambda-range', min: '0.05', max: '0.99', step: '0.01', 'aria-label': 'λ slider' });
      range.addEventListener('input', () => {
        input.value = range.value;
        change('lambda', range.value);
      });
      inputs.set('lambda-range', range);
      row.append(range);
    }
    return row;
  };
  const controlRow = (f: ControlField) => {
    let input: HTMLInputElement | HTMLSelectElement;
    if (f.kind === 'choice') {
      input = el(
        'select',
        { id: `f-${f.name}`, name: f.name },
        ...f.options.map((o) => el('option', { value: o }, o === '' ? '(unset)' : o)),
      );
    } else {
      const list = `list-${f.name}`;
      input = el('input', { type: 'text', id: `f-${f.name}`, name: f.name, list, spellcheck: 'false' });
      document.body.append(el('datalist', { id: list }, ...f.examples.map((x) => el('option', { value: x }))));
    }
    inputs.set(f.name, input);
    return el(
      'label',
      { class: 'row', title: LABELS[f.name] ?? f.name },
      el('span', { class: 'name' }, f.name),
      input,
      el('span', { class: 'hint' }, LABELS[f.name] ?? ''),
    );
  };

  const simulateButton = el('button', { id: 'simulate', type: 'button' }, 'simulate');
  const cancelButton = el('button', { id: 'cancel', type: 'button', disabled: '' }, 'cancel');
  const progress = el('progress', { id: 'sim-progress', max: '1', value: '0' });
  const simStatus = el('div', { id: 'sim-status', class: 'status' }, 'no simulation yet');
  const copyLink = el('button', { type: 'button', id: 'copy-link' }, 'copy link to this view');
  const viewJson = el('button', { type: 'button', id: 'download-view' }, 'view + simulation (JSON)');
  const aside = el(
    'aside',
    { id: 'controls' },
    el('fieldset', {}, el('legend', {}, 'Model'), ...NUMBERS.map(numberRow), ...controls.map(controlRow)),
    el(
      'fieldset',
      {},
      el('legend', {}, 'Simulation at n servers'),
      ...SIMULATION.map(numberRow),
      el('div', { class: 'buttons' }, simulateButton, cancelButton),
      progress,
      simStatus,
    ),
    el(
      'fieldset',
      {},
      el('legend', {}, 'Share and download'),
      el('div', { class: 'buttons' }, copyLink, viewJson),
      el('p', { class: 'hint' }, 'The address holds every setting; figures download as SVG or PNG from their ⋯ menu.'),
    ),
  );
  const summary = el('section', { id: 'summary' });
  const notes = el('section', { id: 'notes' });
  const figures = el('section', { id: 'figures' });
  const main = el('main', {}, summary, notes, figures);
  const root = document.getElementById('app') ?? document.body;
  root.append(el('div', { class: 'layout' }, aside, main));
  document.getElementById('version')?.append(`supermarket-lab ${VERSION}`);

  const showState = () => {
    for (const [name, input] of inputs) {
      const key = name === 'lambda-range' ? 'lambda' : name;
      if (input.value !== status.state[key]) input.value = status.state[key];
    }
  };
  for (const [name, input] of inputs) {
    if (name === 'lambda-range') continue;
    input.addEventListener('change', () => change(name, input.value));
    if (input instanceof HTMLInputElement && input.type === 'number') input.addEventListener('input', () => change(name, input.value));
  }

  // ---- solving
  let solver: Worker | null = null;
  let solving = 0; // id of the request in flight, 0 when idle
  let nextId = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const modelKeys = new Set(['lambda', 'd', 'n', ...controls.map((c) => c.name)]);

  function change(name: string, value: string): void {
    if (status.state[name] === value) return;
    status.state[name] = value;
    writeHash();
    showState();
    if (modelKeys.has(name)) {
      cancelSimulation('the model changed');
      schedule();
    }
  }
  function schedule(): void {
    clearTimeout(timer);
    status.status = 'solving';
    summary.classList.add('stale');
    timer = setTimeout(solve, 120);
  }
  function solve(): void {
    if (solving !== 0 && solver) {
      solver.terminate(); // a slow solve (a cavity estimate) of a state that is gone
      solver = null;
    }
    if (!solver) {
      solver = spawn();
      solver.onmessage = (e: MessageEvent<Reply>) => onSolved(e.data);
      solver.onerror = (e) => onSolved({ type: 'error', id: solving, message: e.message || 'the solver worker failed' });
    }
    let input: Record<string, unknown>;
    try {
      input = modelInput(status.state);
    } catch (e) {
      onSolved({ type: 'error', id: 0, message: (e as Error).message });
      return;
    }
    solving = nextId++;
    solver.postMessage({ type: 'view', id: solving, input, n: Number(status.state.n) } satisfies Request);
  }
  function onSolved(reply: Reply): void {
    if (reply.id !== solving && reply.id !== 0) return;
    solving = 0;
    summary.classList.remove('stale');
    if (reply.type === 'error') {
      status.status = 'error';
      status.error = reply.message;
      status.view = undefined;
      summary.replaceChildren(el('p', { class: 'error', id: 'error' }, reply.message));
      notes.replaceChildren();
      figures.replaceChildren();
      return;
    }
    if (reply.type !== 'view') return;
    status.view = reply.view;
    status.error = undefined;
    render();
  }

  // ---- drawing
  const views: { finalize(): void }[] = [];
  function render(): void {
    const view = status.view;
    if (!view) return;
    const sim = status.simulation.status === 'done' ? status.simulation.result : undefined;
    drawSummary(view, sim);
    notes.replaceChildren(
      ...(view.notes.length ? [el('h2', {}, 'Not available for this model'), el('ul', {}, ...view.notes.map((n) => el('li', {}, n)))] : []),
    );
    const list = explorerFigures(view, sim);
    views.splice(0).forEach((v) => v.finalize());
    figures.replaceChildren();
    const drawing = list.map((figure) => drawFigure(figure));
    void Promise.allSettled(drawing).then(() => {
      status.drawn++;
      status.status = 'ready';
    });
  }
  function drawFigure(figure: ExplorerFigure): Promise<void> {
    const chart = el('div', { class: 'chart' });
    const csv = el('button', { type: 'button', class: 'data' }, 'data (CSV)');
    const json = el('button', { type: 'button', class: 'data' }, 'data (JSON)');
    csv.addEventListener('click', () => download(`${figure.name}.csv`, toCsv(figure.rows), 'text/csv'));
    json.addEventListener('click', () => download(`${figure.name}.json`, jsonText(figure.rows, 1), 'application/json'));
    figures.append(el('div', { class: 'figure', 'data-figure': figure.name }, chart, el('div', { class: 'buttons' }, csv, json)));
    if (typeof vegaEmbed !== 'function') {
      chart.append(el('p', { class: 'error' }, 'vega-embed did not load (assets/ missing?)'));
      return Promise.resolve();
    }
    return vegaEmbed(chart, figure.spec, {
      renderer: 'svg',
      actions: { export: true, source: false, compiled: false, editor: false },
      downloadFileName: figure.name,
      tooltip: { theme: 'light' },
      config: { font: "'DejaVu Sans', 'Verdana', sans-serif" },
    }).then((v) => void views.push(v));
  }
  function drawSummary(view: ExplorerView, sim: SimulationResult | undefined): void {
    const s = view.solution;
    const m = view.model;
    const rows: [string, string, string, string?][] = [];
    const load = m.lambda * m.service.mean;
    rows.push(['ρ', 'load (λ·E[S])', sig(load)]);
    if (s) {
      const ci = s.estimate
        ? ` (95 % CI ${sig(s.estimate.ci95[0])} – ${sig(s.estimate.ci95[1])})`
        : s.measuredError
          ? ` (approximation: ${describeFitErrorOf(s.meanResponseTime, s.measuredError)})`
          : s.numericalError
            ? ` (± ${sig(s.numericalError, 2)} numerical)`
            : '';
      // a mean infinite in theory: ∞ with the reason (view.infinite), never a bare ∞ or a number
      const why = view.infinite !== undefined ? ` (${view.infinite})` : '';
      rows.push([
        'E[T]',
        'mean response time, n → ∞',
        Number.isFinite(s.meanResponseTime) ? sig(s.meanResponseTime, 6) + ci : `∞${why}`,
        'mf-response-time',
      ]);
    }
    // no number and not ∞: the limit's status in the report's words ("not settled", "finite, not computed") and why
    if (!s && view.unvalued)
      rows.push([
        'E[T]',
        'mean response time, n → ∞',
        `${statusText(view.unvalued.status)} (${UNVALUED[view.unvalued.status].meaning}; why: below)`,
        'mf-response-time',
      ]);
    // E[Q] in the CLI's unit, memory π₀ and probes, speed classes, quantiles: the same rows the library gives the CLI
    rows.push(...solutionRows(view));
    const r = view.refined;
    if (r) {
      rows.push([
        'E[T]ₙ',
        `refined mean field, n = ${r.n} (1/n term, ΣV = ${sig(r.sumV)})`,
        sig(r.firstOrder.meanResponseTime, 6),
        'refined-response-time',
      ]);
      if (r.secondOrder) rows.push(['E[T]ₙ', `refined mean field, n = ${r.n} (1/n + 1/n²)`, sig(r.secondOrder.meanResponseTime, 6)]);
    }
    if (sim) {
      const e = sim.meanResponseTime;
      rows.push([
        'E[T]ₙ',
        `simulation, n = ${sim.n} (${sim.replications} × ${sim.jobs} jobs)`,
        // not settled or infinite in theory: no interval, the reason and the run's average (view.ts, tested there)
        simulatedResponseTimeText(e),
        'sim-response-time',
      ]);
      const p = sim.responseTimePercentiles;
      rows.push(['p50, p95, p99', 'response-time percentiles, simulation', `${sig(p.p50.mean)}, ${sig(p.p95.mean)}, ${sig(p.p99.mean)}`]);
    }
    const table = el(
      'table',
      {},
      el(
        'thead',
        {},
        el('tr', {}, el('th', {}, 'quantity'), el('th', {}, ''), el('th', { class: 'num' }, `value (time in ${timeUnit(m.service)})`)),
      ),
      el(
        'tbody',
        {},
        ...rows.map(([sym, words, value, id]) =>
          el('tr', id ? { id } : {}, el('td', { class: 'sym' }, sym), el('td', {}, words), el('td', { class: 'num' }, value)),
        ),
      ),
    );
    const provenance = s
      ? el(
          'p',
          { class: 'provenance', id: 'provenance' },
          el('span', { class: `kind kind-${s.kind}` }, s.kind),
          ` ${s.solver} — ${s.source}; supermarket-lab ${s.provenance.version}; ` +
            (s.convergence.converged ? 'converged' : 'NOT converged') +
            (s.convergence.iterations !== undefined ? `, ${s.convergence.iterations} iterations` : '') +
            (s.convergence.residual !== undefined ? `, residual ${s.convergence.residual.toExponential(1)}` : ''),
        )
      : el('p', { class: 'error' }, 'no mean-field solution for this model (see below)');
    const title = view.title; // the CLI's policy name (modelTitle)
    const refinedSource = r ? el('p', { class: 'provenance' }, `refined: ${r.source}`) : '';
    // a refined value outside its trusted range says so under the table, as `fixed-point --refined` does (view.ts)
    const refinedCaveats = r?.caveats.length
      ? el('ul', { class: 'warnings', id: 'refined-caveats' }, ...r.caveats.map((c) => el('li', {}, `refined mean field: ${c}`)))
      : '';
    summary.replaceChildren(el('h2', { id: 'model-title' }, title), table, refinedCaveats, provenance, refinedSource);
    if (sim && sim.warnings.length)
      summary.append(el('ul', { class: 'warnings' }, ...sim.warnings.map((w) => el('li', {}, `simulation: ${w}`))));
  }

  // ---- simulation
  let simWorkers: Worker[] = [];
  function cancelSimulation(why: string): void {
    if (status.simulation.status === 'running') {
      simWorkers.forEach((w) => w.terminate());
      simWorkers = [];
      status.simulation = { status: 'cancelled', progress: 0 };
      simStatus.textContent = `cancelled (${why})`;
    } else if (status.simulation.status === 'done' && why === 'the model changed') {
      status.simulation = { status: 'idle', progress: 0 };
      simStatus.textContent = 'the model changed: simulate again to overlay';
    }
    progress.value = 0;
    simulateButton.disabled = false;
    cancelButton.disabled = true;
  }
  cancelButton.addEventListener('click', () => cancelSimulation('by you'));
  simulateButton.addEventListener('click', () => {
    let model: SupermarketModel;
    let options: SimulateOptions;
    let plan: ReturnType<typeof planSimulation>;
    const input = modelInput(status.state);
    try {
      model = parseModel(input as unknown as ModelInput);
      options = {
        n: Number(status.state.n),
        jobs: Number(status.state.jobs),
        replications: Number(status.state.replications),
        seed: Number(status.state.seed),
        warmupTime: simulationWarmup(model).time,
      };
      plan = planSimulation(model, options);
    } catch (e) {
      status.simulation = { status: 'error', progress: 0, error: (e as Error).message };
      simStatus.textContent = (e as Error).message;
      simStatus.classList.add('error');
      return;
    }
    simStatus.classList.remove('error');
    const units = plan.minUnits;
    const threads = Math.max(1, Math.min(units, navigator.hardwareConcurrency || 2, 8));
    const parts: ReplicationPart[] = new Array(units);
    const events = new Array<number>(units).fill(0);
    let next = 0;
    let finished = 0;
    status.simulation = { status: 'running', progress: 0 };
    simulateButton.disabled = true;
    cancelButton.disabled = false;
    simStatus.textContent = `running ${units} replications on ${threads} workers…`;
    const started = performance.now();
    const fail = (message: string) => {
      simWorkers.forEach((w) => w.terminate());
      simWorkers = [];
      status.simulation = { status: 'error', progress: 0, error: message };
      simStatus.textContent = message;
      simStatus.classList.add('error');
      simulateButton.disabled = false;
      cancelButton.disabled = true;
    };
    const give = (worker: Worker) => {
      if (next >= units) return;
      const unit = next++;
      worker.onmessage = (e: MessageEvent<Reply>) => {
        const reply = e.data;
        if (reply.type === 'progress') events[unit] = reply.events;
        else if (reply.type === 'error') return fail(reply.message);
        else if (reply.type === 'units') {
          parts[unit] = reply.parts[0];
          events[unit] = reply.parts[0].summary.events;
          finished++;
          if (finished === units) return done();
          give(worker);
        }
        const fraction = Math.min(1, events.reduce((a, b) => a + b, 0) / plan.totalEstimate);
        status.simulation.progress = fraction;
        progress.value = fraction;
        simStatus.textContent = `${finished} of ${units} replications done (${Math.round(100 * fraction)} % of the events)`;
      };
      worker.postMessage({ type: 'units', id: unit + 1, input, options, first: unit, count: 1 } satisfies Request);
    };
    const done = () => {
      simWorkers.forEach((w) => w.terminate());
      simWorkers = [];
      const collector = new SimulationCollector(plan);
      for (const part of parts) if (collector.wantsMore()) collector.add(part);
      const result = collector.result();
      status.simulation = { status: 'done', progress: 1, result };
      progress.value = 1;
      simStatus.textContent = `done: ${units} replications, ${formatCount(result.events)} events in ${((performance.now() - started) / 1000).toFixed(1)} s`;
      simulateButton.disabled = false;
      cancelButton.disabled = true;
      render();
    };
    simWorkers = Array.from({ length: threads }, () => {
      const w = spawn();
      w.onerror = (e) => fail(e.message || 'a simulation worker failed');
      return w;
    });
    simWorkers.forEach(give);
  });

  copyLink.addEventListener('click', () => {
    void navigator.clipboard?.writeText(location.href).then(
      () => (copyLink.textContent = 'link copied'),
      () => (copyLink.textContent = 'copy the address bar'),
    );
  });
  viewJson.addEventListener('click', () => {
    const sim = status.simulation.result;
    const { perReplication: _per, ...simulation } = sim ?? ({} as Partial<SimulationResult>);
    download(
      'explorer-view.json',
      jsonText({ state: status.state, view: viewAsJson(status.view), ...(sim ? { simulation } : {}) }, 1),
      'application/json',
    );
  });
  addEventListener('hashchange', () => {
    const state = readHash();
    if (Object.keys(state).every((k) => state[k] === status.state[k])) return;
    status.state = state;
    showState();
    cancelSimulation('the model changed');
    schedule();
  });

  status.state = readHash();
  writeHash();
  showState();
  schedule();
}

if (typeof window === 'undefined') {
  const scope = self as unknown as WorkerScope;
  scope.onmessage = (event) => handleRequest(event.data, (reply) => scope.postMessage(reply));
} else if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', page);
} else {
  page();
}
